import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { ANSWER_TIME_FLOORS_MS } from '../answer-time-floor.ts'

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
