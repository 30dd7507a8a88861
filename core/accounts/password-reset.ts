import { and, eq, like } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { rateLimits, verifications } from '#db/schema/index.ts'
import { accountKey, normaliseEmail } from './account-rate-limits.ts'

/**
 * After a password was reset with an e-mailed link: every other reset link of that account stops
 * working (an older, unused one could otherwise still set a password), and the account's
 * sign-in lock is lifted. The lock builds up from wrong passwords, from any address, so an
 * attacker could keep the owner out; the link proves the owner holds the mailbox
 * (docs/decisions/007-accounts.md).
 */
export async function afterPasswordReset(
  db: Database,
  secret: string,
  user: { id: string; email: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(verifications)
      .where(and(like(verifications.identifier, 'reset-password:%'), eq(verifications.value, user.id)))
    const email = normaliseEmail(user.email)
    if (email) await tx.delete(rateLimits).where(eq(rateLimits.key, accountKey(secret, 'sign-in', email)))
  })
}
