import { redirect } from 'react-router'
import { GuardPage } from '#app/components/guard-page.tsx'
import { getSessionUser, requireUser } from '#app/lib/session.server.ts'
import type { Route } from './+types/dashboard.ts'

// Decided on the server: a redirect, so no extra history entry and no loading flash.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(await getSessionUser(context, request), request)
  return redirect(user.role === 'admin' ? '/admin-dashboard' : '/user-dashboard')
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <GuardPage error={error} />
}
