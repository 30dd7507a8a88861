import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { AssignmentForm } from '#app/components/conversations/assignment.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { actionFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { assignConversation, listWaitingConversations } from '#core/conversations/conversation-service.ts'
import type { Route } from './+types/conversations.ts'

// Every conversation where a customer waits for an answer (docs/decisions/048), the longest
// waiting first, with who answers it and "assign to me". Admins and moderators.

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listWaitingConversations(getServiceContext(context))
  const when = japanDateTime(context.get(requestContext).language)
  return {
    viewerId: getUser(context).id,
    rows: rows.map((row) => ({
      ...row,
      waitingLabel: when(row.waitingSince),
      href: `/admin-dashboard/${row.kind === 'request' ? 'requests' : 'shipments'}/${row.orderId}#conversation`,
    })),
  }
}

/** Assigns a conversation to the staff member who asks, or gives it back; then back where they were. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const to = form.get('to') === 'none' ? 'none' : 'me'
  try {
    await assignConversation(getServiceContext(context), String(form.get('conversationId') ?? ''), to)
  } catch (error) {
    return actionFailure(error)
  }
  return redirectWithNotice(
    context,
    safeRedirect(form.get('back'), '/admin-dashboard/conversations'),
    to === 'me' ? 'conversationAssigned' : 'conversationUnassigned',
  )
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function WaitingConversationsRoute() {
  const { t } = useTranslation()
  const { rows, viewerId } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="conversations-heading" className="space-y-4">
      <PageMeta title={t('waitingConversations.title')} description={t('waitingConversations.lead')} />
      <h1 id="conversations-heading" className="text-3xl font-bold text-slate-900">
        {t('waitingConversations.title')}
      </h1>
      <p className="text-slate-700">{t('waitingConversations.lead')}</p>
      {rows.length === 0 ? (
        <p className="rounded-md bg-emerald-50 p-3 font-medium text-emerald-900">
          {t('waitingConversations.empty')}
        </p>
      ) : (
        <ol className="space-y-3" data-testid="waiting-conversations">
          {rows.map((row) => (
            <li
              key={row.id}
              className="space-y-2 rounded-lg border border-slate-200 p-3"
              data-testid="waiting-row"
            >
              <p className="flex flex-wrap gap-x-4 gap-y-1">
                <Link to={row.href} className="font-semibold text-red-800 underline">
                  {t(`waitingConversations.kind.${row.kind}`)} {row.number}
                </Link>
                <span className="text-slate-800">
                  {t('waitingConversations.customer')}: {row.customerName}
                </span>
                <span className="text-slate-800">
                  {t('waitingConversations.waiting')}: {row.waitingLabel}
                </span>
              </p>
              <AssignmentForm
                conversationId={row.id}
                assignedTo={row.assignedTo}
                viewerId={viewerId}
                back="/admin-dashboard/conversations"
                label={row.number}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
