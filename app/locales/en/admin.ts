// English strings of the admin area (app/locales/areas.ts says which pages load it).
// The Spanish file of the same name has exactly the same keys.
export default {
  roles: {
    assignedTitle: 'Role assigned',
    assignedText: 'User role updated to {{role}}',
    deniedTitle: 'Permission denied',
    failedTitle: 'Role assignment failed',
    signInFirst: 'Sign in first.',
  },
  outbox: {
    title: 'Development outbox',
    lead: 'E-mails the site would have sent. This page exists only outside production.',
    empty: 'No e-mails yet.',
    to: 'To: {{to}}',
    smsHeading: 'Text messages',
    smsEmpty: 'No text messages yet.',
  },
}
