import { Outlet } from 'react-router'
import { AdminArea } from '#app/components/admin/admin-area.tsx'
import { areas } from '#app/locales/areas.ts'
import { getUser, requireAdminMiddleware } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/layout.ts'

// The admin-only pages of the admin area (the contact inbox, money, settings): admins only.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).
// The request pages, which moderators share, sit under ./staff-layout.tsx.

export const handle = areas('account', 'admin')

export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware]

/** Refuses a page read even when the page's own loader reads nothing. */
export function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  return null
}

export default function Layout() {
  return (
    <AdminArea adminPages>
      <Outlet />
    </AdminArea>
  )
}
