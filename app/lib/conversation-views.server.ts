import { data, type RouterContextProvider } from 'react-router'
import type { ThreadFormResult, ThreadMessage } from '#app/components/conversations/conversation-thread.tsx'
import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { readForm } from '#app/lib/form-data.server.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext, getServiceContext } from '#app/middleware/auth.server.ts'
import {
  type ConversationOwner,
  type ConversationView,
  openConversation,
  postMessage,
} from '#core/conversations/conversation-service.ts'
import { MESSAGE_FORM_BODY_BYTES, MESSAGE_MAX_FILES } from '#core/conversations/message-rules.ts'
import { isAppError } from '#core/shared/errors.ts'

// The conversation of a request or shipment on a page (docs/decisions/048): its messages with
// their labels written on the server in the page's language and Japan time, and the one action
// that writes a message (the customer's pages and the staff's post to it).

type Context = Readonly<RouterContextProvider>

/** The page's view of an order's conversation; the viewer's side is marked read. */
export async function conversationForPage(context: Context, owner: ConversationOwner) {
  const view = await openConversation(getServiceContext(context), owner)
  return conversationProps(context, view)
}

export function conversationProps(context: Context, view: ConversationView) {
  const { language } = context.get(requestContext)
  const t = translator(language)
  const format = japanDateTime(language)
  const prefix = view.side === 'customer' ? 'conversation' : 'staffConversation'
  const messages: ThreadMessage[] = view.messages.map((message) => {
    const mine = message.side === view.side
    const authorLabel =
      view.side === 'customer'
        ? t(mine ? `${prefix}.you` : `${prefix}.team`)
        : `${message.authorName ?? ''}${message.side === 'customer' ? ` (${t(`${prefix}.customer`)})` : ''}`
    return {
      id: message.id,
      side: message.side,
      mine,
      authorLabel,
      dateLabel: format(message.createdAt),
      body: message.body,
      readByOther: message.readByOther,
      attachments: message.attachments.map((file) => ({
        id: file.id,
        contentType: file.contentType,
        width: file.width,
        height: file.height,
        sizeKb: Math.max(1, Math.round(file.byteSize / 1024)),
      })),
    }
  })
  return {
    id: view.id,
    number: view.number,
    messages,
    // Who handles it and since when it waits are staff's: a customer's page never carries them.
    waitingLabel: view.side === 'staff' && view.waitingSince ? format(view.waitingSince) : null,
    assignedTo: view.side === 'staff' ? view.assignedTo : null,
  }
}

/** The path of an order's page, the customer's or the staff's. */
export function orderPath(side: 'customer' | 'staff', owner: ConversationOwner): string {
  return `/${side === 'customer' ? 'user' : 'admin'}-dashboard/${owner.kind === 'request' ? 'requests' : 'shipments'}/${owner.id}`
}

/** The order a messages address is about: `/…/requests/<id>/messages` or `/…/shipments/<id>/messages`. */
export function ownerOfUrl(request: Request, id: string | undefined): ConversationOwner {
  const kind = /\/shipments\//.test(new URL(request.url).pathname) ? 'shipment' : 'request'
  return { kind, id: id ?? '' }
}

/**
 * Writes a message from the form (multipart: `body`, `files`): back to the order's page at its
 * conversation with a notice, or the form's refusal (400, 413) with translated field errors.
 * No such order, or not the customer's: the 404 error page.
 */
export async function messageAction(request: Request, context: Context, owner: ConversationOwner) {
  const side = getServiceContext(context).actor?.role === 'user' ? 'customer' : 'staff'
  const prefix = side === 'customer' ? 'conversation' : 'staffConversation'
  const t = translator(context.get(requestContext).language)
  const refused = (errors: ThreadFormResult['errors'], body: string, status: number) =>
    data(
      { result: { formError: t(`${prefix}.errors.invalid`), errors, body } satisfies ThreadFormResult },
      { status },
    )
  const read = await readForm(request, {
    maxFiles: MESSAGE_MAX_FILES * 2,
    maxBytes: MESSAGE_FORM_BODY_BYTES,
  })
  if (!read.ok)
    return refused({ files: [read.problem === 'tooLarge' ? 'fileTooLarge' : 'fileCorrupt'] }, '', 413)
  const body = read.formData.get('body')
  const text = typeof body === 'string' ? body : ''
  const files = read.formData.getAll('files').filter((value): value is File => typeof value !== 'string')
  try {
    await postMessage(getOrderContext(context), owner, { body: text }, files)
  } catch (error) {
    if (isAppError(error, 'invalid') && error.details.fieldErrors) {
      return refused(error.details.fieldErrors as ThreadFormResult['errors'], text.slice(0, 4000), 400)
    }
    if (isAppError(error, 'forbidden') || isAppError(error, 'rate_limited')) {
      const refusal = refusalOf(error)
      return data(
        { result: { formError: t(refusal.messageKey), errors: {}, body: text.slice(0, 4000) } },
        refusal.init,
      )
    }
    throw error
  }
  return redirectWithNotice(
    context,
    `${orderPath(side, owner)}#conversation`,
    side === 'customer' ? 'messageSent' : 'staffMessageSent',
  )
}
