import { data, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import {
  countMyUnread,
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationAudience,
} from '#core/notifications/notification-service.ts'
import { notificationValues } from '#core/notifications/notification-values.ts'
import { notificationParts } from '#core/notifications/notify.ts'

// The two notifications pages (the customer's `/user-dashboard/notifications`, the staff's
// `/admin-dashboard/notifications`, docs/decisions/036): one loader and one action, by audience.
// Each notification's title and body are written here, on the server, with the same texts and
// values as its e-mail (server/order-emails.ts): the staff's texts are the e-mails' (server-only
// strings, whose nesting the browser's translator does not do).

type Context = Readonly<RouterContextProvider>

/** A page of the reader's list (`?cursor=`), its unread count, and the notice after marking. */
export async function loadNotifications(request: Request, context: Context, audience: NotificationAudience) {
  const search = new URL(request.url).searchParams
  const cursor = search.get('cursor')
  const service = getServiceContext(context)
  const [page, unread] = await Promise.all([
    listMyNotifications(service, { cursor, audience }),
    countMyUnread(service, audience),
  ])
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  const t = translator(language)
  const base = audience === 'staff' ? 'staffNotifications' : 'customerNotifications'
  // A type this page does not know yet (added by a newer part of the site) still reads as something.
  const text = (type: string, part: 'title' | 'body' | 'reason', values: Record<string, string | number>) => {
    const key = `${base}.${type}.${part}`
    // A notification may name a variant of its text (`variant: 'noPhoto'` → `body_noPhoto`);
    // i18next answers a missing key with the key itself: then the text without the variant.
    const variant = typeof values.variant === 'string' ? `${key}_${values.variant}` : null
    const varied = variant ? t(variant, values) : null
    if (varied !== null && varied !== variant) return varied
    const written = t(key, values)
    return written === key
      ? t(part === 'title' ? 'notificationsPage.fallbackTitle' : 'notificationsPage.fallbackBody')
      : written
  }
  return {
    cursor,
    nextCursor: page.nextCursor,
    unread,
    notifications: page.rows.map((row) => {
      // A number `count` stays a number, so a text can have its plural forms (as in the e-mail).
      const values: Record<string, string | number> = notificationValues(row.params, language)
      if (typeof row.params.count === 'number') values.count = row.params.count
      return {
        id: row.id,
        tone: row.tone,
        type: row.type,
        title: text(row.type, 'title', values),
        // The body, then who cancelled and why when it says so (docs/decisions/037), as the e-mail.
        body: notificationParts(row.params, (part) => {
          const key = `${base}.${row.type}.${part}`
          return t(key) !== key
        })
          .filter((part) => part !== 'title')
          .map((part) => text(row.type, part, values))
          .join('\n'),
        link: row.link,
        read: row.read,
        createdAt: row.createdAt.toISOString(),
        createdLabel: format(row.createdAt),
      }
    }),
  }
}

const MarkSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('read'), id: z.string().max(100) }),
  z.object({ intent: z.literal('read-all') }),
])

/** Marks one or all read, then shows the same page of `path` again (the header's count follows). */
export async function markNotificationsAction(
  request: Request,
  context: Context,
  audience: NotificationAudience,
  path: string,
) {
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: MarkSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ formErrors: ['errors.codes.invalid'] }) }, { status: 400 })
  }
  const service = getServiceContext(context)
  try {
    if (submission.value.intent === 'read') await markNotificationRead(service, submission.value.id, audience)
    else await markAllNotificationsRead(service, audience)
  } catch (error) {
    return formFailure(error, submission)
  }
  // Back to the same page of the list (its cursor), never to the request's own URL: a script's
  // post goes to the data URL (…/notifications.data).
  const back = new URLSearchParams()
  const cursor = new URL(request.url).searchParams.get('cursor')
  if (cursor) back.set('cursor', cursor)
  const query = back.size > 0 ? `?${back}` : ''
  return redirectWithNotice(
    context,
    `${path}${query}`,
    submission.value.intent === 'read' ? 'notificationRead' : 'notificationsAllRead',
  )
}
