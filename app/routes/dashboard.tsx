import { redirect } from 'react-router'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/dashboard.ts'

// Decided on the server: a redirect, so no extra history entry and no loading flash.
export function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  return redirect(user.role === 'admin' ? '/admin-dashboard' : '/user-dashboard')
}
