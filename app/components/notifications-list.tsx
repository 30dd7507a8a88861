import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { CircleCheck, Info, TriangleAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import type { loadNotifications } from '#app/lib/notifications.server.ts'
import type { NotificationTone } from '#core/notifications/notification-service.ts'

const TONE_STYLE: Record<NotificationTone, { Icon: typeof Info; className: string }> = {
  info: { Icon: Info, className: 'text-sky-800' },
  success: { Icon: CircleCheck, className: 'text-emerald-800' },
  warning: { Icon: TriangleAlert, className: 'text-amber-800' },
}

export type NotificationsPageData = Awaited<ReturnType<typeof loadNotifications>>

/**
 * A reader's notifications, newest first, unread ones marked, with "mark read" and "mark all
 * read" (posted to the page's own action, app/lib/notifications.server.ts, which writes each
 * one's title and body). The customer's list and the staff's (docs/decisions/036).
 */
export function NotificationsList({
  page,
  lastResult,
  path,
  title,
  lead,
  children,
}: {
  page: NotificationsPageData
  lastResult: SubmissionResult<string[]> | undefined
  /** The page's own path (its pages and its action). */
  path: string
  title: string
  lead: string
  /** Anything under the lead (the staff page: a link to their own orders' notifications). */
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const { notifications, nextCursor, cursor, unread } = page
  const [form] = useForm({ id: 'notifications', lastResult })
  const formError = errorText(t, form.errors?.[0])
  return (
    <section aria-labelledby="notifications-heading">
      <PageMeta title={title} description={lead} />
      <h1 id="notifications-heading" className="text-3xl font-bold text-slate-900">
        {title}
      </h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        {lead} {t('requests.japanTime')}
      </p>
      {children}
      <FormAlert id={form.errorId} className="mt-4">
        {formError}
      </FormAlert>
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
          {notifications.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
      <ListPages path={path} cursor={cursor} nextCursor={nextCursor} />
    </section>
  )
}

/** One notification: its tone, title (a link when it has one), body, date, and "mark read" while unread. */
function NotificationItem({
  notification,
}: {
  notification: NotificationsPageData['notifications'][number]
}) {
  const { t } = useTranslation()
  const title = notification.title
  const { Icon, className } = TONE_STYLE[notification.tone]
  return (
    <li
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
        <p className="mt-1 whitespace-pre-line break-words text-slate-800">{notification.body}</p>
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
}

/** Back to the newest page (when on an older one) and on to older notifications (when there are more). */
function ListPages({
  path,
  cursor,
  nextCursor,
}: Pick<NotificationsPageData, 'cursor' | 'nextCursor'> & { path: string }) {
  const { t } = useTranslation()
  return (
    <p className="mt-6 flex flex-wrap gap-4">
      {cursor ? (
        <Link to={path} className="font-semibold text-red-800 underline">
          {t('notificationsPage.newest')}
        </Link>
      ) : null}
      {nextCursor ? (
        <Link
          to={`${path}?cursor=${encodeURIComponent(nextCursor)}`}
          className="font-semibold text-red-800 underline"
        >
          {t('notificationsPage.older')}
        </Link>
      ) : null}
    </p>
  )
}
