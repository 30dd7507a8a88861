import { Outlet, useLoaderData } from 'react-router'
import { AdminArea } from '#app/components/admin/admin-area.tsx'
import { areas } from '#app/locales/areas.ts'
import { getServiceContext, requireStaffMiddleware } from '#app/middleware/auth.server.ts'
import { can } from '#core/shared/staff-policy.ts'
import type { Route } from './+types/staff-layout.ts'

// The admin area's request pages (/admin-dashboard/requests…, /admin-dashboard/invoices/:id):
// admins and moderators. Every route of this branch is refused here for anyone else (see
// app/middleware/auth.server.ts); what a moderator may do on them is the services' policy
// (core/shared/staff-policy.ts, docs/decisions/021-quotes-invoices-payments.md).

export const handle = areas('account', 'admin')

export const middleware: Route.MiddlewareFunction[] = [requireStaffMiddleware]

/** Refuses a page read even when the page's own loader reads nothing; which tabs to show. */
export function loader({ context }: Route.LoaderArgs) {
  const { actor } = getServiceContext(context)
  return { adminPages: can(actor, 'read_contact_inbox') }
}

export default function StaffLayout() {
  const { adminPages } = useLoaderData<typeof loader>()
  return (
    <AdminArea adminPages={adminPages}>
      <Outlet />
    </AdminArea>
  )
}
