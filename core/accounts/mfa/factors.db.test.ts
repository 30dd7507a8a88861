import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import { authBackupCodes, authFactors, sessions } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { type MfaDeps, openChallenge, verifyFactor } from './challenges.ts'
import { enrollFactor, type SessionActor } from './factors.ts'
import { MFA_LIMITS } from './mfa-limits.ts'
import { base32Decode, hotp, timeStep } from './totp.ts'

async function setup() {
  const { db, pool } = await createTestDatabase()
  const { id } = await insertPasswordAccount(pool, { email: `mfa-${Date.now()}@example.com` })
  const token = `token-${id}`
  await pool.query(
    `INSERT INTO sessions (id, token, user_id, expires_at, created_at, updated_at) VALUES ($1, $2, $3, now() + interval '1 day', now(), now())`,
    [`session-${id}`, token, id],
  )
  const deps: MfaDeps = {
    db,
    hmacKey: 'test-hmac-key',
    encrypt: async (plain) => `sealed:${plain}`,
    decrypt: async (sealed) => sealed.replace(/^sealed:/, ''),
    sms: { kind: 'outbox', send: async () => undefined },
    composeSms: async ({ code }) => code,
    issuer: async () => 'Test',
    rateLimitFactor: 1,
    logError: () => undefined,
  }
  const actor: SessionActor = {
    userId: id,
    email: 'a@example.com',
    aal: 'aal1',
    sessionToken: token,
    createdAt: new Date(),
  }
  return { db, pool, deps, actor }
}

test('the factor limit counts the factors that remain once stale set-ups are dropped', async () => {
  const { db, pool, deps, actor } = await setup()
  for (let n = 0; n < MFA_LIMITS.maxFactors; n++) {
    await enrollFactor(deps, actor, { type: 'totp', friendlyName: `App ${n}` })
  }
  const refused = await enrollFactor(deps, actor, { type: 'totp', friendlyName: 'One more' }).catch((e) => e)
  expect(isAppError(refused) && refused.details.reason).toBe('mfaTooManyFactors')
  // Set-ups left unfinished for over a day are dropped first, and then there is room.
  await pool.query(`UPDATE auth_factors SET created_at = now() - interval '2 days' WHERE user_id = $1`, [
    actor.userId,
  ])
  await expect(enrollFactor(deps, actor, { type: 'totp', friendlyName: 'One more' })).resolves.toMatchObject({
    status: 'unverified',
  })
  expect(await db.select().from(authFactors).where(eq(authFactors.userId, actor.userId))).toHaveLength(1)
})

test('confirming the first factor verifies it, stores its backup codes and raises the session to aal2, together', async () => {
  const { db, deps, actor } = await setup()
  const factor = await enrollFactor(deps, actor, { type: 'totp', friendlyName: 'App' })
  const secret = factor.totp?.secret ?? ''
  const sessionActor = {
    kind: 'session' as const,
    userId: actor.userId,
    language: 'es',
    aal: actor.aal,
    sessionToken: actor.sessionToken,
  }
  const challenge = await openChallenge(deps, sessionActor, factor.id)
  const { backupCodes } = await verifyFactor(deps, sessionActor, factor.id, {
    challengeId: challenge.id,
    code: hotp(base32Decode(secret), timeStep()),
  })
  expect(backupCodes).toHaveLength(MFA_LIMITS.backupCodes)
  const [row] = await db.select().from(authFactors).where(eq(authFactors.id, factor.id))
  expect(row).toMatchObject({ status: 'verified' })
  expect(row?.verifiedAt).toBeInstanceOf(Date)
  expect(row?.lastUsedAt).toBeInstanceOf(Date)
  expect(
    await db.select().from(authBackupCodes).where(eq(authBackupCodes.userId, actor.userId)),
  ).toHaveLength(MFA_LIMITS.backupCodes)
  const [session] = await db.select().from(sessions).where(eq(sessions.token, actor.sessionToken))
  expect(session?.aal).toBe('aal2')
})
