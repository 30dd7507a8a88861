import { createHmac } from 'node:crypto'
import { rateLimited } from '#core/shared/errors.ts'
import { consumeRateLimit, type RateLimitRule } from '#core/shared/rate-limit.ts'
import type { Database } from '#db/client.ts'

/**
 * Per-account limits, on top of better-auth's per-address ones (docs/decisions/007-accounts.md).
 * Keyed on the normalised e-mail whether or not an account has it, so a limit never tells
 * who has an account; the key holds an HMAC of the address, not the address.
 *
 * Failed password sign-ins: 10 per account per 15 minutes, then 429 with Retry-After for that
 * account from every address. At most 40 failures an hour reach one account (ASVS 2.2.1: ≤ 100),
 * while a lock lasts at most 15 minutes and only wrong passwords build it up: a sign-in with the
 * right password gives its attempt back.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 }

/**
 * Account e-mails per address, counted when they are about to be sent (from any flow) and dropped
 * silently beyond the limit: the requester's answer is the same either way. Password reset: 3 an
 * hour. Verification: 3 an hour, shared by sign-up, sign-in before verifying, and "send again".
 */
export const PASSWORD_RESET_EMAILS_PER_ACCOUNT: RateLimitRule = { limit: 3, windowSeconds: 60 * 60 }
export const VERIFICATION_EMAILS_PER_ACCOUNT: RateLimitRule = { limit: 3, windowSeconds: 60 * 60 }

export type AccountLimitsOptions = {
  db: Database
  /** Keys the HMAC of e-mail addresses (the auth secret). */
  secret: string
  /** Multiplies every limit (AUTH_RATE_LIMIT_FACTOR: load from one address, as the auth benchmark). */
  rateLimitFactor?: number
}

const TOO_MANY = 'Too many requests. Please try again later.'

export function scaled(rule: RateLimitRule, rateLimitFactor = 1): RateLimitRule {
  return { limit: rule.limit * rateLimitFactor, windowSeconds: rule.windowSeconds }
}

/** The address as better-auth stores it (lower case), trimmed and NFC; null if there is none. */
export function normaliseEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const email = value.trim().normalize('NFC').toLowerCase()
  return email.includes('@') ? email : null
}

/** The rate-limit key for one purpose and one address. */
export function accountKey(secret: string, purpose: string, email: string): string {
  const digest = createHmac('sha256', secret).update(email).digest('base64url').slice(0, 32)
  return `account:${purpose}:${digest}`
}

/**
 * Counts one attempt on `key` (for example `mfa-verify:<userId>`) and, over the limit, throws
 * `rateLimited` (429 with Retry-After wherever it is answered), with `reason` when given.
 * `releaseRateLimit` gives an attempt back when it succeeded.
 */
export async function limitAttempts(
  db: Database,
  key: string,
  rule: RateLimitRule,
  { now = new Date(), reason }: { now?: Date; reason?: string } = {},
): Promise<void> {
  const result = await consumeRateLimit(db, key, rule, now)
  if (result.allowed) return
  throw rateLimited(TOO_MANY, result.retryAfterSeconds, reason)
}

/**
 * Wraps the account e-mail sender: beyond the per-address limit the e-mail is dropped without a
 * word, so the answer (and, with e-mails sent in the background, its timing) stays the same.
 */
export function limitAccountEmails<Message extends { kind: 'verify-email' | 'reset-password'; to: string }>(
  options: AccountLimitsOptions,
  send: (message: Message) => Promise<void>,
): (message: Message) => Promise<void> {
  const rules = {
    'verify-email': scaled(VERIFICATION_EMAILS_PER_ACCOUNT, options.rateLimitFactor),
    'reset-password': scaled(PASSWORD_RESET_EMAILS_PER_ACCOUNT, options.rateLimitFactor),
  }
  return async (message) => {
    const email = normaliseEmail(message.to) ?? message.to
    const key = accountKey(options.secret, `email:${message.kind}`, email)
    const { allowed } = await consumeRateLimit(options.db, key, rules[message.kind])
    if (allowed) await send(message)
  }
}
