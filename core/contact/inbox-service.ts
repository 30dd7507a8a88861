import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { contactMessages, users } from '#db/schema/index.ts'
import { canHandleContactMessages, canReadContactInbox } from './inbox-policy.ts'
import type { HandleMessageInput, InboxQuery } from './inbox-schemas.ts'

// The staff contact inbox: every stored contact message, newest first, whatever its forwarding.

export const INBOX_PAGE_SIZE = 20

export type InboxItem = {
  id: string
  name: string
  email: string
  subject: string
  /** The first characters of the message, as text. */
  preview: string
  language: string
  receivedAt: Date
  handledAt: Date | null
  isSpam: boolean
  forwardStatus: string
}

export type InboxPage = {
  items: InboxItem[]
  /** The cursor of the next (older) page, or null on the last page. */
  nextCursor: string | null
}

export type InboxMessage = InboxItem & {
  message: string
  forwardAttempts: number
  forwardedAt: Date | null
  lastError: string | null
  handledBy: { id: string; name: string; email: string } | null
}

const PREVIEW_LENGTH = 140

function refuse(actor: Actor | null, what: string): never {
  throw new AppError('forbidden', `User ${actor?.id ?? 'anonymous'} cannot ${what} the contact inbox`, {
    reason: 'staffOnlyInbox',
  })
}

// The received time in UTC to the microsecond: the page cursor (see InboxQuerySchema).
const receivedAtKey = sql<string>`to_char(${contactMessages.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/**
 * One page of the inbox: open or handled messages, newest first, 20 a page (keyset: the page
 * after `query.after`). Spam (the form's bot check) is left out unless `query.spam`, and then only
 * spam is listed, handled or not.
 * @throws AppError `forbidden` for anyone but staff (inbox-policy.ts).
 */
export async function listContactMessages(
  { db, actor }: ServiceContext,
  query: InboxQuery,
): Promise<InboxPage> {
  if (!canReadContactInbox(actor)) refuse(actor, 'read')
  const rows = await db
    .select({
      id: contactMessages.id,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      preview: sql<string>`left(${contactMessages.message}, ${PREVIEW_LENGTH})`,
      language: contactMessages.language,
      receivedAt: contactMessages.createdAt,
      handledAt: contactMessages.handledAt,
      isSpam: contactMessages.isSpam,
      forwardStatus: contactMessages.forwardStatus,
      key: receivedAtKey,
    })
    .from(contactMessages)
    .where(
      and(
        eq(contactMessages.isSpam, query.spam),
        query.spam
          ? undefined
          : query.status === 'handled'
            ? isNotNull(contactMessages.handledAt)
            : isNull(contactMessages.handledAt),
        query.after
          ? sql`(${contactMessages.createdAt}, ${contactMessages.id}) < (${query.after.receivedAt}::timestamptz, ${query.after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(INBOX_PAGE_SIZE + 1)
  const page = rows.slice(0, INBOX_PAGE_SIZE)
  const last = page.at(-1)
  return {
    items: page.map(({ key: _key, ...item }) => item),
    nextCursor: rows.length > INBOX_PAGE_SIZE && last ? `${last.key}_${last.id}` : null,
  }
}

/** How many messages wait to be handled (spam aside), for the admin dashboard. */
export async function countOpenContactMessages({ db, actor }: ServiceContext): Promise<number> {
  if (!canReadContactInbox(actor)) refuse(actor, 'read')
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(contactMessages)
    .where(and(eq(contactMessages.isSpam, false), isNull(contactMessages.handledAt)))
  return row?.count ?? 0
}

/**
 * One message, whole.
 * @throws AppError `forbidden` for anyone but staff, `not_found` when there is no such message.
 */
export async function getContactMessage({ db, actor }: ServiceContext, id: string): Promise<InboxMessage> {
  if (!canReadContactInbox(actor)) refuse(actor, 'read')
  const [row] = await db
    .select({
      message: contactMessages,
      handler: { id: users.id, name: users.name, email: users.email },
    })
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.handledBy))
    .where(eq(contactMessages.id, id))
  if (!row)
    throw new AppError('not_found', `Contact message ${id} does not exist`, { reason: 'messageNotFound' })
  const m = row.message
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    subject: m.subject,
    preview: m.message.slice(0, PREVIEW_LENGTH),
    language: m.language,
    receivedAt: m.createdAt,
    handledAt: m.handledAt,
    isSpam: m.isSpam,
    forwardStatus: m.forwardStatus,
    message: m.message,
    forwardAttempts: m.forwardAttempts,
    forwardedAt: m.forwardedAt,
    lastError: m.lastError,
    handledBy: m.handledAt && row.handler?.id ? row.handler : null,
  }
}

/**
 * Marks a message handled (recording who and when) or reopens it. Marking one already handled
 * keeps its first who and when.
 * @throws AppError `forbidden` for anyone but staff, `not_found` when there is no such message.
 */
export async function setContactMessageHandled(
  { db, actor }: ServiceContext,
  id: string,
  input: HandleMessageInput,
): Promise<{ id: string; handledAt: Date | null }> {
  if (!actor || !canHandleContactMessages(actor)) refuse(actor, 'change')
  const [row] = await db
    .update(contactMessages)
    .set(
      input.intent === 'handle'
        ? {
            handledAt: sql`coalesce(${contactMessages.handledAt}, now())`,
            handledBy: sql`case when ${contactMessages.handledAt} is null then ${actor.id} else ${contactMessages.handledBy} end`,
          }
        : { handledAt: null, handledBy: null },
    )
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id, handledAt: contactMessages.handledAt })
  if (!row)
    throw new AppError('not_found', `Contact message ${id} does not exist`, { reason: 'messageNotFound' })
  return row
}
