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
}
