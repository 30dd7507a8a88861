import { useTranslation } from 'react-i18next'
import { Link, useActionData, useLoaderData } from 'react-router'
import { ConversationThread } from '#app/components/conversations/conversation-thread.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import {
  conversationForPage,
  messageAction,
  orderPath,
  ownerOfUrl,
} from '#app/lib/conversation-views.server.ts'
import type { Route } from './+types/conversation.ts'

// The conversation of one of the customer's requests or shipments on its own page
// (docs/decisions/048): where the form on the order's page posts, and what it shows when a
// message is refused (the fields' errors, what was typed). Another customer's order: 404.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const owner = ownerOfUrl(request, params.id)
  return { owner, back: orderPath('customer', owner), thread: await conversationForPage(context, owner) }
}

export function action({ request, params, context }: Route.ActionArgs) {
  return messageAction(request, context, ownerOfUrl(request, params.id))
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function CustomerConversationRoute() {
  const { t } = useTranslation()
  const { back, thread } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const title = t('conversation.title', { number: thread.number })
  return (
    <article aria-labelledby="conversation-page-heading" className="space-y-6">
      <PageMeta title={title} description={title} />
      <p>
        <Link to={back} className="font-semibold text-red-800 underline">
          {t('conversation.back')}
        </Link>
      </p>
      <h1 id="conversation-page-heading" className="text-3xl font-bold text-slate-900">
        {title}
      </h1>
      <ConversationThread
        prefix="conversation"
        messages={thread.messages}
        action={`${back}/messages`}
        fileHref={(id) => `/user-dashboard/message-files/${id}`}
        result={actionData && 'result' in actionData ? actionData.result : null}
      />
    </article>
  )
}
