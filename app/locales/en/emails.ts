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
    importEstimate:
      'Estimated taxes on arrival in {{country}}: {{amount}} (collected by {{collector}}); an estimate, not charged by us.',
    importCollector: {
      customs: 'customs before delivery',
      carrier: 'the post or the courier on delivery',
    },
  },
  // What staff are told (their notifications list and e-mail, each in their language): the
  // staff who may act on it (core/notifications/notify.ts, docs/decisions/036). Server only: the
  // staff's list is written on the server (app/lib/notifications.server.ts).
  staffNotifications: {
    button: 'Open it in the admin panel',
    new_request: {
      title: 'New request {{number}} from {{customer}}',
      // `body` is the fallback; a number `count` picks the plural form.
      body: '{{count}} links to quote.',
      body_one: '{{count}} link to quote.',
      body_other: '{{count}} links to quote.',
    },
    payment_held: {
      title: 'Payment held for review: {{number}}',
      body: 'The provider reported {{amount}}; the invoice asks {{expectedJpy}}. The request stays unpaid until you check it.',
    },
    refund_due: {
      title: 'Refund due: {{number}}',
      body: 'A second payment of {{amountJpy}} arrived for an invoice already paid. Refund it at {{provider}}.',
    },
    request_cancelled: {
      title: 'Request {{number}} cancelled by the customer',
      body: 'Nothing to do: it will not be bought.',
      reason: 'Their reason: {{reason}}',
    },
    quote_paid: {
      title: 'Quote paid: {{number}}',
      body: 'The customer paid {{amountJpy}} with {{provider}} (invoice {{invoice}}). Its items are ready to buy.',
    },
    shipping_paid: {
      title: 'Shipping paid: {{number}}',
      body: 'The customer paid {{amountJpy}} for shipping with {{provider}} (receipt {{invoice}}). The box is ready to hand to the carrier.',
    },
    customer_message: {
      title: '{{customer}} wrote about {{number}}',
      body: 'A new message is waiting for an answer in the order’s conversation.',
    },
    transfer_reported: {
      title: 'Bank transfer to check: {{number}}',
      body: '{{customer}} says they paid {{amountJpy}} by bank transfer (reference {{invoice}}). Look for it in the bank account and record it with its reference once it has arrived.',
    },
    new_shipment: {
      title: 'New shipment {{number}} from {{customer}}',
      body: 'Items: {{count}}, $t(analytics.methods.{{method}}) to {{country}}. It needs packing, weighing and pricing.',
    },
    shipment_cancelled_by_customer: {
      title: 'Shipment {{number}} cancelled by the customer',
      body: 'Do not pack or send it: its items are back in storage.',
      body_receipt:
        'Do not pack or send it: its items are back in storage and its shipping receipt {{invoice}} can no longer be paid.',
      reason: 'Their reason: {{reason}}',
    },
    new_claim: {
      title: 'Shipment {{number}} reported lost',
      body: 'The customer says it has not arrived. Open a case with the carrier and record its reference on the shipment page.',
    },
  },
  // The grouped e-mail of a conversation's messages (server/conversation-emails.ts, ADR 048).
  conversationEmail: {
    subjectCustomer: {
      request: 'New message about your request {{number}}',
      shipment: 'New message about your shipment {{number}}',
    },
    subjectStaff: {
      request: '{{customer}} wrote about request {{number}}',
      shipment: '{{customer}} wrote about shipment {{number}}',
    },
    lead_one: 'There is {{count}} new message:',
    lead_other: 'There are {{count}} new messages:',
    from: '{{author}}, {{date}} (Japan time):',
    team: 'Our team',
    files_one: '({{count}} file attached: see it on the site)',
    files_other: '({{count}} files attached: see them on the site)',
    button: 'Read and answer',
  },
}
