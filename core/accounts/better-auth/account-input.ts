import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { AccountProfileInputSchema } from '#core/accounts/account-schemas.ts'
import { AppError } from '#core/shared/errors.ts'
import { toAPIError } from './errors.ts'

/** The endpoints that take a person's name, language or picture from the client. */
const PROFILE_PATHS = new Set(['/sign-up/email', '/update-user'])

/**
 * better-auth takes any length of name and any string as a picture or a language. Our limits
 * apply to the API as to our forms: a name of at most 100 characters and no control characters,
 * a language we speak, no picture from the client. Runs before the endpoint: nothing is stored
 * and no e-mail goes out when it refuses.
 */
export function accountInputLimits() {
  return {
    id: 'account-input-limits',
    hooks: {
      before: [
        {
          matcher: (context) => PROFILE_PATHS.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const parsed = AccountProfileInputSchema.safeParse(ctx.body ?? {})
            if (parsed.success) return
            const issue = parsed.error.issues[0]
            const field = String(issue?.path[0] ?? 'name')
            throw toAPIError(
              new AppError('invalid', `Refused ${field} on ${ctx.path}: ${issue?.message}`, {
                reason: 'invalidProfileInput',
                fieldErrors: { [field]: [issue?.message ?? 'invalid'] },
              }),
            )
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
