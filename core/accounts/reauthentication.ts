import { and, eq } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { Database } from '#db/client.ts'
import { accounts } from '#db/schema/index.ts'
import { verifyPassword } from './passwords.ts'
import { reauthenticationStep } from './reauthentication-policy.ts'

export { FRESH_SESSION_SECONDS } from './reauthentication-policy.ts'

/** The password hash of a user's e-mail/password sign-in, or null when there is none. */
export async function passwordHashOf(db: Database, userId: string): Promise<string | null> {
  const [credential] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  return credential?.hash ?? null
}

/** Whether a user has an e-mail/password sign-in (the hash itself is not read). */
export async function hasPasswordSignIn(db: Database, userId: string): Promise<boolean> {
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .limit(1)
  return credential !== undefined
}

/** Re-authentication before a sensitive change: returns when it passed, else throws AppError. */
export async function reauthenticate(
  db: Database,
  {
    userId,
    sessionCreatedAt,
    password,
    confirmed = false,
  }: { userId: string; sessionCreatedAt: Date; password: unknown; confirmed?: boolean },
  options: { requireConfirmation?: boolean; now?: Date } = {},
): Promise<void> {
  const passwordHash = await passwordHashOf(db, userId)
  // Longer than better-auth's maximum (128) cannot be right; the cap bounds the hashing work.
  const given = typeof password === 'string' ? password.slice(0, 200) : ''
  const step = reauthenticationStep(
    { passwordHash, passwordGiven: given !== '', sessionCreatedAt, confirmed },
    options,
  )
  if (step instanceof AppError) throw step
  if (step === 'ok' || !passwordHash) return
  if (!(await verifyPassword({ hash: passwordHash, password: given }))) {
    throw new AppError('invalid', 'Invalid password', { reason: 'invalidPassword' })
  }
}
