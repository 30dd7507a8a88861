import { redirect } from 'react-router'
import { signOut } from '#app/lib/auth-client.server.ts'
import { flashCookie } from '#app/lib/cookies.server.ts'
import { requireOwnOrigin } from '#app/lib/same-origin.server.ts'
import { redirectWithCookies } from '#app/lib/session.server.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/sign-out.ts'

export async function action({ request, context }: Route.ActionArgs) {
  // The auth client vouches for the origin to the auth handler, so it is checked here first.
  requireOwnOrigin(context, request)
  // A failed sign-out says so ('Sign out failed') instead of pretending.
  try {
    const { setCookies } = await signOut({ context, request })
    return redirectWithCookies('/', setCookies, await flashCookie(context, 'signedOut'))
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithCookies('/dashboard', [], await flashCookie(context, 'signOutFailed'))
  }
}

export function loader() {
  return redirect('/')
}
