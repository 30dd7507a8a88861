import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import type { Database } from '#db/client.ts'
import { reauthenticate } from '../reauthentication.ts'
import { speakingAuth } from './errors.ts'

/**
 * Deleting an account always asks for the password (better-auth alone would take a session under
 * a day old instead); an account without one needs a session signed in within ten minutes and
 * `confirm: true`. Runs before better-auth's endpoint, so nothing is deleted when it fails.
 */
export function deleteAccountGuard(db: Database) {
  return {
    id: 'delete-account-guard',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/delete-user' || context.path === '/delete-user/callback',
          handler: createAuthMiddleware(async (ctx) => {
            const found = await getSessionFromCtx(ctx)
            // Without a session better-auth answers 401 itself.
            if (!found) return
            const body = (ctx.body ?? {}) as { password?: unknown; confirm?: unknown }
            await speakingAuth(() =>
              reauthenticate(
                db,
                {
                  userId: found.user.id,
                  sessionCreatedAt: found.session.createdAt,
                  password: body.password,
                  confirmed: body.confirm === true,
                },
                { requireConfirmation: true },
              ),
            )
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
