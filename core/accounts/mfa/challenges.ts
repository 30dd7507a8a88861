import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { SmsSender } from '#core/notifications/sms.ts'
import { releaseRateLimit } from '#core/shared/rate-limit.ts'
import type { Database } from '#db/client.ts'
import { limitAttempts } from '../account-rate-limits.ts'
import { newBackupCodes } from './backup-codes.ts'
import {
  advanceTotpStep,
  closeChallenge,
  countChallengeFailure,
  countPendingFailure,
  deletePendingSignIn,
  type Factor,
  findOpenChallenge,
  findOwnFactor,
  insertChallenge,
  markFactorUsed,
  type PendingSignIn,
  recordFactorVerified,
  verifiedFactors,
} from './factor-store.ts'
import { challengeExpired, invalidCode, invalidInput, signInExpired, smsFailed } from './mfa-failures.ts'
import { MFA_LIMITS } from './mfa-limits.ts'
import { type Aal, accountLimitRule, factorNotFound, mayUseFactor, signInExhausted } from './mfa-policy.ts'
import { FactorIdSchema, VerifyFactorSchema } from './mfa-schemas.ts'
import { matchTotp } from './totp.ts'

/** What MFA needs from outside: storage, the secret box of TOTP secrets, SMS and its text. */
export type MfaDeps = {
  db: Database
  /** Keys the HMAC of SMS codes. */
  hmacKey: string
  encrypt: (plain: string) => Promise<string>
  decrypt: (sealed: string) => Promise<string>
  sms: SmsSender
  /** The SMS text carrying a code, in the recipient's language. */
  composeSms: (input: { code: string; language: string; minutes: number }) => Promise<string>
  /** The name authenticator apps show (the company name from settings). */
  issuer: () => Promise<string>
  /** Multiplies the per-account limits (1 outside the browser tests). */
  rateLimitFactor: number
  logError: (message: string, error: unknown) => void
}

/** Who presents a code: a signed-in session, or a sign-in waiting for its second factor. */
export type MfaActor =
  | { kind: 'session'; userId: string; language: string; aal: Aal; sessionToken: string }
  | { kind: 'pending'; userId: string; language: string; pending: PendingSignIn }

/**
 * Per-account limits of code checks and text messages, from any address (429 + Retry-After).
 * Returns when the attempt was counted, so a check that succeeds can give it back.
 */
export async function limitAccount(deps: MfaDeps, kind: 'verify' | 'sms', userId: string): Promise<Date> {
  const countedAt = new Date()
  await limitAttempts(deps.db, `mfa-${kind}:${userId}`, accountLimitRule(kind, deps.rateLimitFactor), {
    reason: 'mfaTooManyAttempts',
    now: countedAt,
  })
  return countedAt
}

/** A right code gives its check back: only wrong codes build up the account's lock. */
export function releaseVerifyAttempt(deps: MfaDeps, userId: string, countedAt: Date): Promise<void> {
  return releaseRateLimit(
    deps.db,
    `mfa-verify:${userId}`,
    accountLimitRule('verify', deps.rateLimitFactor),
    countedAt,
  )
}

/** The actor's factor `factorId`, if the actor may ask for or check its code (mfa-policy.ts). */
export async function usableFactor(deps: MfaDeps, actor: MfaActor, factorId: unknown): Promise<Factor> {
  const id = FactorIdSchema.safeParse(factorId)
  const factor = id.success ? await findOwnFactor(deps.db, actor.userId, id.data) : null
  if (!factor) throw factorNotFound()
  if (factor.status !== 'verified') {
    const hasVerified = (await verifiedFactors(deps.db, actor.userId)).length > 0
    const refused = mayUseFactor(
      actor.kind === 'session' ? { kind: 'session', aal: actor.aal } : { kind: 'pending' },
      'unverified',
      hasVerified,
    )
    if (refused) throw refused
  }
  return factor
}

/** A challenge of one factor; for a phone, the SMS with a code goes out now. */
export async function openChallenge(deps: MfaDeps, actor: MfaActor, factorId: unknown) {
  const factor = await usableFactor(deps, actor, factorId)
  const id = crypto.randomUUID()
  let codeHash: string | null = null
  if (factor.type === 'phone' && factor.phone) {
    await limitAccount(deps, 'sms', actor.userId)
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    codeHash = hmacCode(deps.hmacKey, id, code)
    const text = await deps.composeSms({
      code,
      language: actor.language,
      minutes: MFA_LIMITS.smsCodeSeconds / 60,
    })
    await deps.sms.send({ to: factor.phone, text }).catch((error: unknown) => {
      deps.logError('SMS delivery failed', error)
      throw smsFailed()
    })
  }
  const expiresAt = new Date(Date.now() + MFA_LIMITS.smsCodeSeconds * 1000)
  await insertChallenge(deps.db, { id, factorId: factor.id, codeHash, expiresAt })
  return { id, type: factor.type as 'totp' | 'phone', expiresAt }
}

/**
 * Verifies a code for a challenge. Signing in: the caller creates the session at aal2. Signed in:
 * in one transaction the factor becomes verified (the first one also gets backup codes, returned
 * once) and the session aal2.
 */
export async function verifyFactor(
  deps: MfaDeps,
  actor: MfaActor,
  factorId: unknown,
  body: unknown,
): Promise<{ backupCodes: string[] | null }> {
  const input = VerifyFactorSchema.safeParse(body)
  if (!input.success) throw invalidInput(input.error)
  const factor = await usableFactor(deps, actor, factorId)
  const countedAt = await limitAccount(deps, 'verify', actor.userId)
  if (!(await checkFactorCode(deps, factor, input.data))) {
    await countFailure(deps.db, actor)
    throw invalidCode()
  }
  await releaseVerifyAttempt(deps, actor.userId, countedAt)
  if (actor.kind === 'pending') {
    await markFactorUsed(deps.db, factor.id)
    return { backupCodes: null }
  }
  const firstFactor =
    factor.status !== 'verified' && (await verifiedFactors(deps.db, actor.userId)).length === 0
  const codes = firstFactor ? await newBackupCodes() : null
  await recordFactorVerified(deps.db, {
    factorId: factor.id,
    userId: actor.userId,
    sessionToken: actor.sessionToken,
    backupCodeHashes: codes?.hashes ?? null,
  })
  return { backupCodes: codes?.shown ?? null }
}

/** A wrong code: a pending sign-in has five tries, then starts again from the password. */
export async function countFailure(db: Database, actor: MfaActor): Promise<void> {
  if (actor.kind !== 'pending') return
  if (signInExhausted(await countPendingFailure(db, actor.pending.tokenHash))) {
    await deletePendingSignIn(db, actor.pending.tokenHash)
    throw signInExpired()
  }
}

/** Checks a code against a factor's challenge; each challenge and each TOTP step works once. */
async function checkFactorCode(
  deps: MfaDeps,
  factor: Factor,
  input: { challengeId: string; code: string },
): Promise<boolean> {
  const challenge = await findOpenChallenge(deps.db, { challengeId: input.challengeId, factorId: factor.id })
  if (!challenge || challenge.failedAttempts >= MFA_LIMITS.attemptsPerSignIn) throw challengeExpired()
  let ok = false
  if (factor.type === 'totp' && factor.secret) {
    const step = matchTotp(await deps.decrypt(factor.secret), input.code)
    ok = step !== null && (await advanceTotpStep(deps.db, factor.id, step))
  } else if (challenge.codeHash) {
    const expected = Buffer.from(challenge.codeHash, 'hex')
    const given = Buffer.from(hmacCode(deps.hmacKey, challenge.id, input.code), 'hex')
    ok = expected.length === given.length && timingSafeEqual(expected, given)
  }
  if (ok) return closeChallenge(deps.db, challenge.id)
  await countChallengeFailure(deps.db, challenge.id)
  return false
}

function hmacCode(key: string, challengeId: string, code: string) {
  return createHmac('sha256', key).update(`${challengeId}:${code}`).digest('hex')
}
