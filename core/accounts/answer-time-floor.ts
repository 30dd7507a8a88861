import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'

/**
 * Shortest time, in milliseconds, to answer the requests that must not tell a registered address
 * from an unknown one by their timing. Both paths hash (sign-up) or look up (reset) alike, but
 * only a new account or a reset link writes to the database, and a commit costs a few
 * milliseconds at rest and tens under load. Above the slowest usual answer (about 50 ms at rest,
 * 170 ms with the machine overloaded); e-mails are sent after the answer.
 */
export const ANSWER_TIME_FLOORS_MS: Readonly<Record<string, number>> = {
  '/sign-up/email': 300,
  '/request-password-reset': 300,
}

/** better-auth plugin: holds back the answers listed in `floors` until their floor has passed. */
export function answerTimeFloor(floors: Readonly<Record<string, number>> = ANSWER_TIME_FLOORS_MS) {
  // better-auth hands a request's before and after hooks the same context object.
  const started = new WeakMap<object, number>()
  const floored = (path: string | undefined) => path !== undefined && Object.hasOwn(floors, path)
  return {
    id: 'answer-time-floor',
    hooks: {
      before: [
        {
          matcher: (context) => floored(context.path),
          handler: createAuthMiddleware(async (ctx) => {
            started.set(ctx.context, performance.now())
          }),
        },
      ],
      after: [
        {
          matcher: (context) => floored(context.path),
          handler: createAuthMiddleware(async (ctx) => {
            const start = started.get(ctx.context)
            const floor = floors[ctx.path]
            if (start === undefined || floor === undefined) return
            const remaining = floor - (performance.now() - start)
            if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining))
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
