import { redirect } from 'react-router'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/dashboard.ts'

// Decided on the server: a redirect, so no extra history entry and no loading flash. A page route
// all the same (its component never shows): a visitor without a session gets the guard page.
export function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  return redirect(user.role === 'admin' ? '/admin-dashboard' : '/user-dashboard')
}

export default function Dashboard() {
  return null
}
