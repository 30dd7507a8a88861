import { getFormProps, useForm } from '@conform-to/react'
import { CircleCheck, Info, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { z } from 'zod'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure, throwRouteError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import {
  countMyUnread,
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationTone,
} from '#core/notifications/notification-service.ts'
import { notificationValues } from '#core/notifications/notification-values.ts'
import type { Route } from './+types/notifications.ts'

// The notifications tab: what we told the customer (the same texts as the e-mails, in the page's
// language), newest first, 20 a page (?cursor=), unread ones marked; mark one or all read.

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams
  const cursor = search.get('cursor')
  const service = getServiceContext(context)
  const [page, unread] = await Promise.all([
    listMyNotifications(service, { cursor }),
    countMyUnread(service),
  ]).catch(throwRouteError)
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  const marked = search.get('marked')
  return {
    cursor,
    nextCursor: page.nextCursor,
    unread,
    marked: marked === 'all' || marked === 'one' ? marked : null,
    notifications: page.rows.map((row) => ({
      id: row.id,
      tone: row.tone,
      type: row.type,
      values: notificationValues(row.params, language),
      link: row.link,
      read: row.read,
      createdAt: row.createdAt.toISOString(),
      createdLabel: format(row.createdAt),
    })),
  }
}

const MarkSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('read'), id: z.string().max(100) }),
  z.object({ intent: z.literal('read-all') }),
])

/** Marks one or all read, then shows the same page again (the header's count follows). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: MarkSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ formErrors: ['errors.codes.invalid'] }) }, { status: 400 })
  }
  const service = getServiceContext(context)
  try {
    if (submission.value.intent === 'read') await markNotificationRead(service, submission.value.id)
    else await markAllNotificationsRead(service)
  } catch (error) {
    return formFailure(error, submission)
  }
  // Back to the same page of the list (its cursor), never to the request's own URL: a script's
  // post goes to the data URL (…/notifications.data).
  const back = new URLSearchParams()
  const cursor = new URL(request.url).searchParams.get('cursor')
  if (cursor) back.set('cursor', cursor)
  back.set('marked', submission.value.intent === 'read' ? 'one' : 'all')
  return redirect(`/user-dashboard/notifications?${back}`)
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const TONE_STYLE: Record<NotificationTone, { Icon: typeof Info; className: string }> = {
  info: { Icon: Info, className: 'text-sky-800' },
  success: { Icon: CircleCheck, className: 'text-emerald-800' },
  warning: { Icon: TriangleAlert, className: 'text-amber-800' },
}

export default function NotificationsRoute() {
  const { t, i18n } = useTranslation()
  const { notifications, nextCursor, cursor, unread, marked } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form] = useForm({ id: 'notifications', lastResult: actionData?.result })
  const formError = form.errors?.[0] ? t(form.errors[0] as 'errors.codes.invalid') : null
  // A type this page does not know yet (added by a newer part of the site) still reads as something.
  const text = (type: string, part: 'title' | 'body', values: Record<string, string>) => {
    const key = `customerNotifications.${type}.${part}`
    if (!i18n.exists(key))
      return t(part === 'title' ? 'notificationsPage.fallbackTitle' : 'notificationsPage.fallbackBody')
    return String(t(key as never, values as never))
  }
  return (
    <section aria-labelledby="notifications-heading">
      <PageMeta title={t('notificationsPage.title')} description={t('notificationsPage.lead')} />
      <h1 id="notifications-heading" className="text-3xl font-bold text-slate-900">
        {t('notificationsPage.title')}
      </h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        {t('notificationsPage.lead')} {t('requests.japanTime')}
      </p>
      {marked ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 p-3 font-medium text-emerald-900">
          {marked === 'all' ? t('notificationsPage.markedAll') : t('notificationsPage.markedOne')}
        </p>
      ) : null}
      {formError ? (
        <p id={form.errorId} role="alert" className="mt-4 font-medium text-red-800">
          {formError}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <p className="font-medium text-slate-800" data-testid="unread-count">
          {unread > 99
            ? t('notificationsPage.manyUnread')
            : unread > 0
              ? t('notificationsPage.unreadCount', { count: unread })
              : t('notificationsPage.allReadNow')}
        </p>
        {unread > 0 ? (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="read-all" />
            <button
              type="submit"
              className="min-h-11 rounded-md border border-slate-400 px-4 font-semibold text-slate-900 hover:bg-slate-50"
            >
              {t('notificationsPage.markAllRead')}
            </button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p className="mt-6 text-slate-700">{t('notificationsPage.empty')}</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {notifications.map((notification) => {
            const title = text(notification.type, 'title', notification.values)
            const { Icon, className } = TONE_STYLE[notification.tone]
            return (
              <li
                key={notification.id}
                data-testid="notification"
                data-read={notification.read}
                className={`grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-3 rounded-lg border p-4 sm:grid-cols-[auto_minmax(0,1fr)_auto] ${
                  notification.read ? 'border-slate-200' : 'border-red-200 bg-red-50/50'
                }`}
              >
                <Icon aria-hidden="true" className={`mt-0.5 size-6 ${className}`} />
                <div>
                  <h2 className="font-semibold text-slate-900">
                    <span className="sr-only">{t(`notificationsPage.tones.${notification.tone}`)}: </span>
                    {notification.link ? (
                      <Link to={notification.link} className="text-red-800 underline underline-offset-2">
                        {title}
                      </Link>
                    ) : (
                      title
                    )}
                  </h2>
                  <p className="mt-1 whitespace-pre-line break-words text-slate-800">
                    {text(notification.type, 'body', notification.values)}
                  </p>
                  <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <time dateTime={notification.createdAt}>{notification.createdLabel}</time>
                    {notification.read ? null : (
                      <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
                        {t('notificationsPage.unreadBadge')}
                      </span>
                    )}
                  </p>
                </div>
                {notification.read ? null : (
                  <Form method="post" className="col-start-2 sm:col-start-3 sm:row-start-1">
                    <input type="hidden" name="intent" value="read" />
                    <input type="hidden" name="id" value={notification.id} />
                    <button
                      type="submit"
                      aria-label={t('notificationsPage.markReadLabel', { title })}
                      className="min-h-11 rounded-md border border-slate-400 px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50"
                    >
                      {t('notificationsPage.markRead')}
                    </button>
                  </Form>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <p className="mt-6 flex flex-wrap gap-4">
        {cursor ? (
          <Link to="/user-dashboard/notifications" className="font-semibold text-red-800 underline">
            {t('notificationsPage.newest')}
          </Link>
        ) : null}
        {nextCursor ? (
          <Link
            to={`/user-dashboard/notifications?cursor=${encodeURIComponent(nextCursor)}`}
            className="font-semibold text-red-800 underline"
          >
            {t('notificationsPage.older')}
          </Link>
        ) : null}
      </p>
    </section>
  )
}
