import { redirect } from 'react-router'
import { flashCookie } from '#app/lib/cookies.server.ts'
import { requireOwnOrigin } from '#app/lib/same-origin.server.ts'
import { authRequest, redirectWithCookies } from '#app/lib/session.server.ts'
import type { Route } from './+types/sign-out.ts'

export async function action({ request, context }: Route.ActionArgs) {
  // authRequest vouches for the origin to the auth handler, so it is checked here first.
  requireOwnOrigin(context, request)
  const result = await authRequest(context, request, 'POST', '/sign-out', {})
  // A failed sign-out says so ('Sign out failed') instead of pretending.
  const outcome = result.status === 200 ? 'signedOut' : 'signOutFailed'
  return redirectWithCookies(
    outcome === 'signedOut' ? '/' : '/dashboard',
    result.setCookies,
    await flashCookie(context, outcome),
  )
}

export function loader() {
  return redirect('/')
}
