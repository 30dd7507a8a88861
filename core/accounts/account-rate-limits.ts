import { createHmac } from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api'
import { consumeRateLimit, type RateLimitRule, releaseRateLimit } from '#core/shared/rate-limit.ts'
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
  factor?: number
}

const TOO_MANY = 'Too many requests. Please try again later.'

function scaled(rule: RateLimitRule, factor = 1): RateLimitRule {
  return { limit: rule.limit * factor, windowSeconds: rule.windowSeconds }
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
 * Counts one attempt on `key` (for example `mfa:<userId>`) and, over the limit, throws the 429
 * better-auth answers with (Retry-After in seconds). For better-auth endpoints and hooks;
 * `releaseRateLimit` gives an attempt back when it succeeded.
 */
export async function limitAttempts(
  db: Database,
  key: string,
  rule: RateLimitRule,
  { now = new Date(), code = 'TOO_MANY_REQUESTS' }: { now?: Date; code?: string } = {},
): Promise<void> {
  const result = await consumeRateLimit(db, key, rule, now)
  if (result.allowed) return
  const retryAfter = String(result.retryAfterSeconds)
  throw new APIError(
    'TOO_MANY_REQUESTS',
    { code, message: TOO_MANY },
    { 'Retry-After': retryAfter, 'X-Retry-After': retryAfter },
  )
}

/** better-auth plugin: the per-account sign-in limit. */
export function accountRateLimits(options: AccountLimitsOptions) {
  const rule = scaled(SIGN_IN_FAILURES_PER_ACCOUNT, options.factor)
  const signInKey = (body: unknown) => {
    const email = normaliseEmail((body as { email?: unknown } | undefined)?.email)
    return email ? accountKey(options.secret, 'sign-in', email) : null
  }
  // When each sign-in was counted: better-auth hands its before and after hooks the same context.
  const counted = new WeakMap<object, Date>()
  return {
    id: 'account-rate-limits',
    hooks: {
      // Every attempt is counted before the password is checked, atomically, so parallel guesses
      // cannot all pass a check made before any failure is recorded.
      before: [
        {
          matcher: (context) => context.path === '/sign-in/email',
          handler: createAuthMiddleware(async (ctx) => {
            const key = signInKey(ctx.body)
            if (!key) return
            const now = new Date()
            counted.set(ctx.context, now)
            try {
              await limitAttempts(options.db, key, rule, { now })
            } catch (error) {
              ctx.context.logger.warn(`Sign-in limit reached for ${key}`)
              throw error
            }
          }),
        },
      ],
      // Only a wrong password (401) keeps its count: anything else gives the attempt back.
      after: [
        {
          matcher: (context) => context.path === '/sign-in/email',
          handler: createAuthMiddleware(async (ctx) => {
            const key = signInKey(ctx.body)
            const returned = ctx.context.returned
            if (!key || (isAPIError(returned) && returned.statusCode === 401)) return
            await releaseRateLimit(options.db, key, rule, counted.get(ctx.context))
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
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
    'verify-email': scaled(VERIFICATION_EMAILS_PER_ACCOUNT, options.factor),
    'reset-password': scaled(PASSWORD_RESET_EMAILS_PER_ACCOUNT, options.factor),
  }
  return async (message) => {
    const email = normaliseEmail(message.to) ?? message.to
    const key = accountKey(options.secret, `email:${message.kind}`, email)
    const { allowed } = await consumeRateLimit(options.db, key, rules[message.kind])
    if (allowed) await send(message)
  }
}
