import { Outlet } from 'react-router'
import { areas } from '#app/locales/areas.ts'
import { getUser, requireUserMiddleware } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/layout.ts'

// The customer area (/user-dashboard and what the orders add under it): signed in, any role.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).

export const handle = areas('account')

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware]

/** Refuses a page read even when the page's own loader reads nothing. */
export function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  return null
}

export default function Layout() {
  return <Outlet />
}
