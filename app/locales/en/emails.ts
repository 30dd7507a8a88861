// English strings of the emails area (app/locales/areas.ts says which pages load it).
// The Spanish file of the same name has exactly the same keys.
export default {
  emails: {
    greeting: 'Hello {{name}},',
    ignore: "If you didn't ask for this, you can ignore this e-mail.",
    linkFallback: 'If the button does not work, copy this link into your browser:',
    footer: 'Sent by {{shop}}, {{address}}.',
    contact: 'Questions? Write to us at {{email}}.',
    verify: {
      subject: 'Confirm your e-mail address',
      body: 'Please confirm your e-mail address to finish creating your account.',
      button: 'Confirm my e-mail',
    },
    reset: {
      subject: 'Reset your password',
      body: 'We received a request to reset your password. The link works once, for one hour.',
      button: 'Choose a new password',
    },
  },
  // E-mails to staff (admins and moderators), each in their language.
  staffNotifications: {
    button: 'Open it in the admin panel',
    new_request: {
      title: 'New request {{number}} from {{customer}}',
      body: '{{count}} link(s) to quote.',
    },
    payment_held: {
      title: 'Payment held for review: {{number}}',
      body: 'The provider reported {{amount}} {{currency}}; the invoice asks {{expectedJpy}}. The request stays unpaid until you check it.',
    },
    refund_due: {
      title: 'Refund due: {{number}}',
      body: 'A second payment of {{amountJpy}} arrived for an invoice already paid. Refund it at {{provider}}.',
    },
    request_cancelled: {
      title: 'Request {{number}} cancelled by the customer',
      body: 'Nothing to do: it will not be bought.',
    },
    new_shipment: {
      title: 'New shipment {{number}} from {{customer}}',
      body: 'Items: {{count}}, $t(analytics.methods.{{method}}) to {{country}}. It needs packing, weighing and pricing.',
    },
    new_claim: {
      title: 'Shipment {{number}} reported lost',
      body: 'The customer says it has not arrived. Open a case with the carrier and record its reference on the shipment page.',
    },
  },
}
