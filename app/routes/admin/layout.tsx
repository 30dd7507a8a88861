import { Outlet } from 'react-router'
import { areas } from '#app/locales/areas.ts'
import { getUser, requireAdminMiddleware } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/layout.ts'

// The admin area (/admin-dashboard and its tabs): admins only.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).

export const handle = areas('account', 'admin')

export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware]

/** Refuses a page read even when the page's own loader reads nothing. */
export function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  return null
}

export default function Layout() {
  return <Outlet />
}
