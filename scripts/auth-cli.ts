// Entry for the better-auth CLI (`npm run auth:generate`): the real configuration with inert
// dependencies, so the CLI can read the plugins and fields without a database.

import { createAuth } from '../core/accounts/better-auth/auth.ts'
import { createDb } from '../db/client.ts'

export const auth = createAuth({
  db: createDb('postgres://localhost/unused').db,
  appUrl: 'http://localhost:3000',
  secret: 'cli-only-secret-cli-only-secret-cli',
  appName: 'storefront',
  sendAccountEmail: async () => undefined,
  adminEmails: [],
  google: { clientId: 'cli', clientSecret: 'cli', issuer: 'https://accounts.google.com' },
})
