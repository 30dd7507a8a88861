import { redirect } from 'react-router'
import { signOut } from '#app/lib/auth-client.server.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { requireOwnOrigin } from '#app/lib/same-origin.server.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/sign-out.ts'

export async function action({ request, context }: Route.ActionArgs) {
  // The auth client vouches for the origin to the auth handler, so it is checked here first.
  requireOwnOrigin(context, request)
  // A failed sign-out says so ('Sign out failed') instead of pretending.
  try {
    const { setCookies } = await signOut({ context, request })
    return redirectWithNotice(context, '/', 'signedOut', { setCookies })
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithNotice(context, '/dashboard', 'signOutFailed')
  }
}

export function loader() {
  return redirect('/')
}
