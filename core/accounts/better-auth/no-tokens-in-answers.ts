import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware, isAPIError } from 'better-auth/api'

const ANSWERS_WITH_TOKENS = new Set(['/sign-in/email', '/sign-up/email', '/get-session'])

/** A copy without any `token` field, at any depth (the session's token, the sign-in's). */
function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, inner]) => [key, withoutTokens(inner)]),
  )
}

/**
 * The session token travels in its HttpOnly cookie only: better-auth also puts it in the JSON of
 * sign-in, sign-up and get-session, where a script on the page (or a log) could read it. No
 * client of ours needs it there. In-process calls (`auth.api`) keep the whole answer.
 */
export function noTokensInAnswers() {
  return {
    id: 'no-tokens-in-answers',
    hooks: {
      after: [
        {
          matcher: (context) => ANSWERS_WITH_TOKENS.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            if (!ctx.request) return
            const returned = ctx.context.returned
            if (returned === null || typeof returned !== 'object' || isAPIError(returned)) return
            if (returned instanceof Response) return
            return ctx.json(withoutTokens(returned) as Record<string, unknown>)
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
