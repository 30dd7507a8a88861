import { randomBytes } from 'node:crypto'
import { inArray } from 'drizzle-orm'
import type { Auth } from '#core/accounts/better-auth/auth.ts'
import type { Database } from '#db/client.ts'
import { users } from '#db/schema/index.ts'

export const DEMO_ACCOUNTS = [
  { email: 'demo-admin@example.com', name: 'Demo Admin', role: 'admin' as const },
  { email: 'demo-customer@example.com', name: 'Demo Customer', role: 'user' as const },
]

/**
 * On the embedded (local) database: one demo admin and one demo customer, verified, with random
 * passwords generated now and returned once for printing. Nothing is created if they exist, and
 * no password is ever stored in clear.
 */
export async function ensureDemoAccounts(auth: Auth, db: Database) {
  const existing = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((account) => account.email),
      ),
    )
  const existingEmails = new Set(existing.map((row) => row.email))
  const created: { email: string; password: string; role: string }[] = []
  for (const account of DEMO_ACCOUNTS) {
    if (existingEmails.has(account.email)) continue
    const password = randomBytes(12).toString('base64url')
    await auth.api.createUser({
      body: { email: account.email, password, name: account.name, role: account.role },
    })
    await db
      .update(users)
      .set({ emailVerified: true })
      .where(inArray(users.email, [account.email]))
    created.push({ email: account.email, password, role: account.role })
  }
  return { created, existing: [...existingEmails] }
}
