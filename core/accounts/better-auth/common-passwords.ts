import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { COMMON_PASSWORD_ERROR, isCommonPassword } from '../common-passwords.ts'

/** Where better-auth takes a new password, and the body field that carries it. */
const NEW_PASSWORD_FIELD: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/admin/create-user': 'password',
  '/admin/set-user-password': 'newPassword',
}

/**
 * Refuses a common password before the endpoint runs, so nothing is written and a reset token
 * is not spent; applies to the JSON API and our forms alike.
 */
export function commonPasswordsPlugin() {
  return {
    id: 'common-passwords',
    hooks: {
      before: [
        {
          matcher: (context) => Boolean(context.path && Object.hasOwn(NEW_PASSWORD_FIELD, context.path)),
          handler: createAuthMiddleware(async (ctx) => {
            const field = NEW_PASSWORD_FIELD[ctx.path]
            const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined
            if (typeof password !== 'string') return
            // A too-short one gets better-auth's own PASSWORD_TOO_SHORT, which says what to do.
            if (password.length < ctx.context.password.config.minPasswordLength) return
            if (await isCommonPassword(password)) throw APIError.from('BAD_REQUEST', COMMON_PASSWORD_ERROR)
          }),
        },
      ],
    },
    $ERROR_CODES: { PASSWORD_TOO_COMMON: COMMON_PASSWORD_ERROR },
  } satisfies BetterAuthPlugin
}
