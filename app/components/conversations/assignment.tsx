import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'

/**
 * Who on the team answers a conversation (docs/decisions/048): "assign to me", or give it back
 * when it is the viewer's. A plain form post to the waiting list's action, back to `back`.
 */
export function AssignmentForm({
  conversationId,
  assignedTo,
  viewerId,
  back,
  label,
}: {
  conversationId: string
  assignedTo: { id: string; name: string } | null
  viewerId: string
  back: string
  /** Names the conversation for a screen reader (the order's number), in a list of many. */
  label?: string
}) {
  const { t } = useTranslation()
  const mine = assignedTo?.id === viewerId
  return (
    <Form method="post" action="/admin-dashboard/conversations" className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="conversationId" value={conversationId} />
      <input type="hidden" name="to" value={mine ? 'none' : 'me'} />
      <input type="hidden" name="back" value={back} />
      <span className="text-slate-800" data-testid="conversation-assignee">
        {assignedTo
          ? t('staffConversation.assignedTo', { name: assignedTo.name })
          : t('staffConversation.notAssigned')}
      </span>
      <button
        type="submit"
        aria-label={
          label
            ? `${mine ? t('staffConversation.unassign') : t('staffConversation.assignMe')} · ${label}`
            : undefined
        }
        className="min-h-11 rounded-md border border-slate-400 px-3 font-semibold text-slate-900 hover:bg-slate-50"
      >
        {mine ? t('staffConversation.unassign') : t('staffConversation.assignMe')}
      </button>
    </Form>
  )
}

/** Since when the customer waits, and who answers: on the order's page and on this one. */
export function StaffConversationStatus({
  thread,
  viewerId,
  back,
}: {
  thread: {
    id: string | null
    waitingLabel: string | null
    assignedTo: { id: string; name: string } | null
  }
  viewerId: string
  back: string
}) {
  const { t } = useTranslation()
  if (!thread.id) return null
  return (
    <div className="space-y-2 rounded-md bg-slate-50 p-3">
      {thread.waitingLabel ? (
        <p className="font-medium text-amber-950" data-testid="conversation-waiting">
          {t('staffConversation.waitingSince', { date: thread.waitingLabel })}
        </p>
      ) : null}
      <AssignmentForm
        conversationId={thread.id}
        assignedTo={thread.assignedTo}
        viewerId={viewerId}
        back={back}
      />
    </div>
  )
}
