import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware, isAPIError } from 'better-auth/api'
import { isDatabaseUnavailable } from '#core/shared/database-errors.ts'
import { releaseRateLimit } from '#core/shared/rate-limit.ts'
import {
  type AccountLimitsOptions,
  accountKey,
  limitAttempts,
  normaliseEmail,
  SIGN_IN_FAILURES_PER_ACCOUNT,
  scaled,
} from '../account-rate-limits.ts'
import { speakingAuth } from './errors.ts'

/** better-auth plugin: the per-account sign-in limit (core/accounts/account-rate-limits.ts). */
export function accountRateLimits(options: AccountLimitsOptions) {
  const rule = scaled(SIGN_IN_FAILURES_PER_ACCOUNT, options.rateLimitFactor)
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
              await speakingAuth(() => limitAttempts(options.db, key, rule, { now }))
            } catch (error) {
              if (isAPIError(error) && error.statusCode === 429)
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
            // Giving the attempt back is a courtesy: with the database away (often why the answer
            // is not a 401: the endpoint's own 503) it stays counted and the answer goes out as it is.
            await releaseRateLimit(options.db, key, rule, counted.get(ctx.context)).catch(
              (error: unknown) => {
                if (!isDatabaseUnavailable(error)) throw error
                ctx.context.logger.warn(
                  `Sign-in attempt for ${key} not given back: the database is unavailable`,
                )
              },
            )
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
