import { and, count, eq, isNull, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import { decodeTimeCursor, keysetPage, newestFirst, olderThan } from '#core/shared/keyset.ts'
import { isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import { notifications } from '#db/schema/index.ts'
import type { NotificationParams } from './notify.ts'

/**
 * A reader's notifications (the "Notifications" tab and the header's unread count): read them
 * newest first, count the unread ones, mark one or all read. Two lists per person: the customer's
 * own (`customer`, written by `notifyCustomer`) and, for staff, the work that needs them
 * (`staff`, written by `notifyStaff`; docs/decisions/036), each with its own unread count.
 * Written in the transaction of each change (./notify.ts); rendered from the locale keys of their type.
 */

/** Whose list: the customer's own, or the staff's. */
export type NotificationAudience = 'customer' | 'staff'

/** Notifications per page of the list. */
export const NOTIFICATIONS_PAGE_SIZE = 20

/** The header shows "99+" beyond this: counting stops there, so a huge backlog costs nothing more. */
export const UNREAD_COUNT_CAP = 99

export type NotificationTone = 'info' | 'success' | 'warning'

export type NotificationView = {
  id: string
  tone: NotificationTone
  /** A key under `customerNotifications` (or, for staff, `staffNotifications`) in the locale files. */
  type: string
  params: NotificationParams
  /** A path of this site, or null. */
  link: string | null
  read: boolean
  createdAt: Date
}

export type NotificationPage = { rows: NotificationView[]; nextCursor: string | null }

/** Who may read `audience`'s notifications: anyone signed in; the staff list only staff. */
function readerOf(actor: ServiceContext['actor'], audience: NotificationAudience) {
  return requireActor(
    actor,
    'Notifications need a signed-in user',
    audience === 'staff' ? { staffOnly: 'Staff notifications are for staff' } : {},
  )
}

/** The audience whose list the header's bell shows this person: staff see their work. */
export function bellAudience(actor: ServiceContext['actor']): NotificationAudience {
  return actor && isStaff(actor) ? 'staff' : 'customer'
}

function toneOf(value: string): NotificationTone {
  return value === 'success' || value === 'warning' ? value : 'info'
}

/**
 * The signed-in user's notifications, newest first, 20 a page (`cursor` from the previous page).
 * @throws AppError `unauthorized` without a user, `invalid` for a cursor that is not one of ours.
 */
export async function listMyNotifications(
  { db, actor }: ServiceContext,
  { cursor, audience = 'customer' }: { cursor?: string | null; audience?: NotificationAudience } = {},
): Promise<NotificationPage> {
  const user = readerOf(actor, audience)
  const rows = await db
    .select({
      id: notifications.id,
      tone: notifications.tone,
      type: notifications.type,
      params: notifications.params,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, user.id),
        eq(notifications.audience, audience),
        olderThan(notifications.createdAt, notifications.id, decodeTimeCursor(cursor)),
      ),
    )
    .orderBy(...newestFirst(notifications.createdAt, notifications.id))
    .limit(NOTIFICATIONS_PAGE_SIZE + 1)
  const page = keysetPage(rows, NOTIFICATIONS_PAGE_SIZE, (row) => row.createdAt)
  return {
    nextCursor: page.nextCursor,
    rows: page.rows.map(({ readAt, tone, ...row }) => ({
      ...row,
      tone: toneOf(tone),
      read: readAt !== null,
    })),
  }
}

/**
 * How many of the user's notifications are unread, up to `UNREAD_COUNT_CAP + 1` (the page says
 * "99+"). One index-only scan of the partial index on unread rows; 0 for nobody signed in.
 */
export async function countMyUnread(
  { db, actor }: ServiceContext,
  audience: NotificationAudience = 'customer',
): Promise<number> {
  if (!actor || (audience === 'staff' && !isStaff(actor))) return 0
  const [row] = await unreadCountQuery(db, actor.id, audience)
  return row?.count ?? 0
}

/** The query `countMyUnread` runs (its plan is tested). */
export function unreadCountQuery(
  db: ServiceContext['db'],
  userId: string,
  audience: NotificationAudience = 'customer',
) {
  const unread = db
    .select({ one: sql`1` })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.audience, audience),
        isNull(notifications.readAt),
      ),
    )
    .limit(UNREAD_COUNT_CAP + 1)
    .as('unread')
  return db.select({ count: count() }).from(unread)
}

/**
 * Marks one of the user's notifications read (again is fine: it stays read, first time kept).
 * Someone else's id answers exactly like a missing one.
 * @throws AppError `not_found` (`notificationNotFound`) for a bad, unknown or other user's id.
 */
export async function markNotificationRead(
  { db, actor }: ServiceContext,
  id: string,
  audience: NotificationAudience = 'customer',
): Promise<void> {
  const user = readerOf(actor, audience)
  const notFound = () =>
    new AppError('not_found', `Notification ${String(id).slice(0, 80)} not found`, {
      reason: 'notificationNotFound',
    })
  if (!isUuid(id)) throw notFound()
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(
      and(eq(notifications.id, id), eq(notifications.userId, user.id), eq(notifications.audience, audience)),
    )
    .returning({ id: notifications.id })
  if (!row) throw notFound()
}

/** Marks all of the user's unread notifications (of that list) read; returns how many were unread. */
export async function markAllNotificationsRead(
  { db, actor }: ServiceContext,
  audience: NotificationAudience = 'customer',
): Promise<number> {
  const user = readerOf(actor, audience)
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, user.id),
        eq(notifications.audience, audience),
        isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id })
  return rows.length
}
