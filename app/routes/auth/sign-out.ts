import { redirect } from 'react-router'
import { signOut } from '#app/lib/auth-client.server.ts'
import { redirectWithCookies } from '#app/lib/session.server.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/sign-out.ts'

export async function action({ request, context }: Route.ActionArgs) {
  // A failed sign-out says so ('Sign out failed') instead of pretending.
  const flash = (outcome: string) => `flash=${outcome}; Path=/; Max-Age=60; SameSite=Lax; HttpOnly`
  try {
    const { setCookies } = await signOut({ context, request })
    return redirectWithCookies('/', setCookies, flash('signedOut'))
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithCookies('/dashboard', [], flash('signOutFailed'))
  }
}

export function loader() {
  return redirect('/')
}
