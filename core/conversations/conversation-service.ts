import { createHash, randomUUID } from 'node:crypto'
import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { looksLikePdf } from '#core/payments/transfer-notices.ts'
import { AppError, isAppError, rateLimited } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import { consumeRateLimit, type RateLimitRule } from '#core/shared/rate-limit.ts'
import { type Actor, isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import { processPhoto } from '#core/uploads/images.ts'
import type { Database, Executor } from '#db/client.ts'
import {
  conversationAttachments,
  conversationMessages,
  conversations,
  notifications,
  purchaseRequests,
  shipments,
  users,
} from '#db/schema/index.ts'
import {
  MESSAGE_FILE_MAX_BYTES,
  MESSAGE_MAX_CHARS,
  MESSAGE_MAX_FILES,
  type MessageRefusal,
} from './message-rules.ts'

/**
 * The conversation of a request or a shipment (issue 34, docs/decisions/048): its customer and
 * staff write messages with photos or a PDF, each side sees what the other has read, a customer
 * message waits for staff until one answers, and each side is e-mailed once per burst.
 */

export type ConversationOwner = { kind: 'request' | 'shipment'; id: string }
export type ConversationSide = 'customer' | 'staff'

/**
 * How many messages one customer may write (all their conversations together): a burst of 20 in
 * 10 minutes and 200 a day; beyond, 429 `messageTooMany` with Retry-After. Staff are not limited.
 */
export const CUSTOMER_MESSAGE_LIMITS: readonly RateLimitRule[] = [
  { limit: 20, windowSeconds: 10 * 60 },
  { limit: 200, windowSeconds: 24 * 60 * 60 },
]

/** How long the grouped e-mail waits after a message, and its window: a burst is one e-mail. */
export const CONVERSATION_EMAIL_DELAY_SECONDS = 180

const NEEDS_SIGN_IN = 'Conversations need a signed-in user'

const notFound = (owner: ConversationOwner) =>
  new AppError('not_found', `${owner.kind} ${String(owner.id).slice(0, 80)} not found`)

/** The request's or shipment's customer and number, or null (no such id). */
async function ownerOf(
  db: Executor,
  owner: ConversationOwner,
): Promise<{ userId: string; number: string } | null> {
  if (!isUuid(owner.id)) return null
  const table = owner.kind === 'request' ? purchaseRequests : shipments
  const [row] = await db
    .select({ userId: table.userId, number: table.number })
    .from(table)
    .where(eq(table.id, owner.id))
  return row ?? null
}

/** The order when this actor may see its conversation (its customer, staff); else `not_found`. */
async function visibleOwner(db: Executor, actor: Actor, owner: ConversationOwner) {
  const row = await ownerOf(db, owner)
  if (!row || !(isStaff(actor) || row.userId === actor.id)) throw notFound(owner)
  return row
}

const ownerColumn = (owner: ConversationOwner) =>
  owner.kind === 'request' ? conversations.requestId : conversations.shipmentId

export type ConversationAttachment = {
  id: string
  contentType: 'image/webp' | 'application/pdf'
  width: number | null
  height: number | null
  byteSize: number
}

export type ConversationMessage = {
  id: string
  side: ConversationSide
  authorName: string | null
  body: string
  createdAt: Date
  /** The other side has read it (their read marker is at or past it). */
  readByOther: boolean
  attachments: ConversationAttachment[]
}

export type ConversationView = {
  id: string | null
  number: string
  /** The side the viewer writes as. */
  side: ConversationSide
  messages: ConversationMessage[]
  waitingSince: Date | null
  assignedTo: { id: string; name: string } | null
}

/**
 * The conversation of an order as its customer or staff see it, and the viewer's side marked
 * read (the page shows every message). An order without one yet: no messages.
 * @throws AppError `unauthorized`; `not_found` (no such order, or not the customer's).
 */
export async function openConversation(
  { db, actor }: ServiceContext,
  owner: ConversationOwner,
  { markRead = true }: { markRead?: boolean } = {},
): Promise<ConversationView> {
  const user = requireActor(actor, NEEDS_SIGN_IN)
  const order = await visibleOwner(db, user, owner)
  const side: ConversationSide = isStaff(user) ? 'staff' : 'customer'
  const assignee = alias(users, 'assignee')
  const [conversation] = await db
    .select({
      id: conversations.id,
      waitingSince: conversations.waitingSince,
      customerReadAt: conversations.customerReadAt,
      staffReadAt: conversations.staffReadAt,
      assignedId: conversations.assignedTo,
      assignedName: assignee.name,
    })
    .from(conversations)
    .leftJoin(assignee, eq(assignee.id, conversations.assignedTo))
    .where(eq(ownerColumn(owner), owner.id))
  if (!conversation) {
    return { id: null, number: order.number, side, messages: [], waitingSince: null, assignedTo: null }
  }
  const rows = await db
    .select({
      id: conversationMessages.id,
      side: conversationMessages.authorSide,
      authorName: users.name,
      body: conversationMessages.body,
      createdAt: conversationMessages.createdAt,
    })
    .from(conversationMessages)
    .leftJoin(users, eq(users.id, conversationMessages.authorId))
    .where(eq(conversationMessages.conversationId, conversation.id))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
  const files = await db
    .select({
      id: conversationAttachments.id,
      messageId: conversationAttachments.messageId,
      contentType: conversationAttachments.contentType,
      width: conversationAttachments.width,
      height: conversationAttachments.height,
      byteSize: conversationAttachments.byteSize,
    })
    .from(conversationAttachments)
    .innerJoin(conversationMessages, eq(conversationMessages.id, conversationAttachments.messageId))
    .where(eq(conversationMessages.conversationId, conversation.id))
    .orderBy(asc(conversationAttachments.position))
  const readAt = { customer: conversation.customerReadAt, staff: conversation.staffReadAt }
  const messages: ConversationMessage[] = rows.map((row) => {
    const mine = row.side as ConversationSide
    const other = readAt[mine === 'customer' ? 'staff' : 'customer']
    return {
      id: row.id,
      side: mine,
      authorName: row.authorName,
      body: row.body,
      createdAt: row.createdAt,
      readByOther: other !== null && other.getTime() >= row.createdAt.getTime(),
      attachments: files
        .filter((file) => file.messageId === row.id)
        .map(({ messageId: _, ...file }) => ({
          ...file,
          contentType: file.contentType as ConversationAttachment['contentType'],
        })),
    }
  })
  const lastOther = messages.findLast((message) => message.side !== side)
  const mineRead = readAt[side]
  if (markRead && lastOther && (mineRead === null || mineRead.getTime() < lastOther.createdAt.getTime())) {
    await markConversationRead(db, conversation.id, side, lastOther.createdAt)
  }
  // The viewer's own notices of this conversation are read too: they have just read it.
  if (markRead && lastOther) {
    const path = owner.kind === 'request' ? 'requests' : 'shipments'
    await db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, user.id),
          isNull(notifications.readAt),
          eq(notifications.type, side === 'customer' ? 'new_message' : 'customer_message'),
          eq(
            notifications.link,
            `/${side === 'customer' ? 'user' : 'admin'}-dashboard/${path}/${owner.id}#conversation`,
          ),
        ),
      )
  }
  return {
    id: conversation.id,
    number: order.number,
    side,
    messages,
    waitingSince: conversation.waitingSince,
    assignedTo:
      conversation.assignedId && conversation.assignedName
        ? { id: conversation.assignedId, name: conversation.assignedName }
        : null,
  }
}

/** Moves a side's read marker forward to `upTo` (never back). */
async function markConversationRead(db: Executor, id: string, side: ConversationSide, upTo: Date) {
  const column = side === 'customer' ? conversations.customerReadAt : conversations.staffReadAt
  await db
    .update(conversations)
    .set(side === 'customer' ? { customerReadAt: upTo } : { staffReadAt: upTo })
    .where(
      and(
        eq(conversations.id, id),
        sql`(${column} is null or ${column} < ${upTo.toISOString()}::timestamptz)`,
      ),
    )
}

type PreparedFile = {
  bytes: Uint8Array
  contentType: 'image/webp' | 'application/pdf'
  width: number | null
  height: number | null
  sha256: string
}

const invalid = (fieldErrors: Record<string, MessageRefusal[]>) =>
  new AppError('invalid', `Message refused: ${JSON.stringify(fieldErrors)}`, { fieldErrors })

/**
 * A message's files made safe, before any transaction: photos checked and re-encoded as every
 * upload is (WebP, no metadata), a PDF kept as sent after checking by its bytes that it is one.
 * @throws AppError `invalid` with a field error on `files`.
 */
export async function prepareMessageFiles(files: readonly Blob[]): Promise<PreparedFile[]> {
  const given = files.filter((file) => file.size > 0)
  if (given.length > MESSAGE_MAX_FILES) throw invalid({ files: ['tooManyFiles'] })
  const prepared: PreparedFile[] = []
  for (const file of given) {
    if (file.size > MESSAGE_FILE_MAX_BYTES) throw invalid({ files: ['fileTooLarge'] })
    const bytes = new Uint8Array(await file.arrayBuffer())
    if (new TextDecoder('latin1').decode(bytes.subarray(0, 5)) === '%PDF-') {
      if (given.length > 1) throw invalid({ files: ['pdfAlone'] })
      if (!looksLikePdf(bytes)) throw invalid({ files: ['fileCorrupt'] })
      prepared.push({
        bytes,
        contentType: 'application/pdf',
        width: null,
        height: null,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      })
      continue
    }
    try {
      const photo = await processPhoto(bytes, { type: file.type, name: (file as Partial<File>).name })
      prepared.push({ ...photo, contentType: 'image/webp' })
    } catch (error) {
      const reason = isAppError(error, 'invalid') ? error.details.reason : undefined
      if (reason === 'photoType') throw invalid({ files: ['fileType'] })
      if (reason === 'photoTooLarge') throw invalid({ files: ['fileTooLarge'] })
      if (reason === 'photoCorrupt' || reason === 'photoEmpty') throw invalid({ files: ['fileCorrupt'] })
      throw error
    }
  }
  return prepared
}

/** Bidirectional overrides and isolates: they make a link or a name read backwards on screen. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g

/** The body as stored: line ends made `\n`, bidi overrides dropped, outer blank space trimmed. */
export function normalizeBody(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n').replace(BIDI_CONTROLS, '').trim() : ''
}

/**
 * Writes a message in an order's conversation (created with its first message) as its customer
 * or staff, with up to four photos or one PDF; tells the other side in the app, and by one
 * grouped e-mail a few minutes later (job `conversation.email`).
 * @throws AppError `unauthorized`; `not_found` (no such order, or not the customer's);
 *   `forbidden` (a staff role that may not write); `invalid` (field errors on `body`, `files`).
 */
export async function postMessage(
  ctx: OrderContext,
  owner: ConversationOwner,
  input: { body?: unknown },
  files: readonly Blob[] = [],
): Promise<{ conversationId: string; messageId: string }> {
  const user = requireActor(ctx.actor, NEEDS_SIGN_IN)
  const order = await visibleOwner(ctx.db, user, owner)
  const side: ConversationSide = isStaff(user) ? 'staff' : 'customer'
  if (side === 'staff') requireStaffAction(user, 'write_note')
  const body = normalizeBody(input.body)
  if (body.length > MESSAGE_MAX_CHARS) throw invalid({ body: ['tooLong'] })
  if (side === 'customer') {
    for (const rule of CUSTOMER_MESSAGE_LIMITS) {
      const key = `conversation-message:${rule.windowSeconds}:${user.id}`
      const limit = await consumeRateLimit(ctx.db, key, rule)
      if (!limit.allowed) {
        throw rateLimited(
          `Customer ${user.id} wrote too many messages`,
          limit.retryAfterSeconds,
          'messageTooMany',
        )
      }
    }
  }
  const prepared = await prepareMessageFiles(files)
  if (body === '' && prepared.length === 0) throw invalid({ body: ['empty'] })

  const messageId = randomUUID()
  const stored = prepared.map((file, index) => ({
    ...file,
    id: randomUUID(),
    position: index + 1,
    key: `conversations/${messageId}/${randomUUID()}.${file.contentType === 'application/pdf' ? 'pdf' : 'webp'}`,
  }))
  for (const file of stored) await ctx.files.put(file.key, file.bytes)
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx
        .insert(conversations)
        .values({
          requestId: owner.kind === 'request' ? owner.id : null,
          shipmentId: owner.kind === 'shipment' ? owner.id : null,
          customerId: order.userId,
        })
        .onConflictDoNothing()
      const [conversation] = await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(eq(ownerColumn(owner), owner.id))
        .for('update')
      if (!conversation) throw new Error(`No conversation for ${owner.kind} ${owner.id}`)
      const [message] = await tx
        .insert(conversationMessages)
        .values({ id: messageId, conversationId: conversation.id, authorId: user.id, authorSide: side, body })
        .returning({ createdAt: conversationMessages.createdAt })
      if (!message) throw new Error('No message row returned')
      if (stored.length > 0) {
        await tx.insert(conversationAttachments).values(
          stored.map((file) => ({
            id: file.id,
            messageId,
            position: file.position,
            contentType: file.contentType,
            fileKey: file.key,
            byteSize: file.bytes.byteLength,
            width: file.width,
            height: file.height,
            sha256: file.sha256,
          })),
        )
      }
      // The writer has read everything up to their own message; a customer's waits for staff.
      await tx
        .update(conversations)
        .set(
          side === 'customer'
            ? {
                lastMessageAt: message.createdAt,
                customerReadAt: message.createdAt,
                waitingSince: sql`coalesce(${conversations.waitingSince}, ${message.createdAt.toISOString()}::timestamptz)`,
              }
            : { lastMessageAt: message.createdAt, staffReadAt: message.createdAt, waitingSince: null },
        )
        .where(eq(conversations.id, conversation.id))
      const path = owner.kind === 'request' ? 'requests' : 'shipments'
      if (side === 'customer') {
        const [customer] = await tx.select({ name: users.name }).from(users).where(eq(users.id, user.id))
        await notifyStaff(tx, ctx.jobs, {
          type: 'customer_message',
          params: { number: order.number, customer: customer?.name ?? '' },
          link: `/admin-dashboard/${path}/${owner.id}#conversation`,
          requestId: owner.kind === 'request' ? owner.id : null,
          email: false,
        })
      } else {
        await notifyCustomer(tx, ctx.jobs, {
          userId: order.userId,
          type: 'new_message',
          params: { number: order.number },
          requestId: owner.kind === 'request' ? owner.id : null,
          link: `/user-dashboard/${path}/${owner.id}#conversation`,
          email: false,
        })
      }
      // The other side's grouped e-mail: one job per conversation and side in a window.
      const recipient: ConversationSide = side === 'customer' ? 'staff' : 'customer'
      await ctx.jobs.enqueue(
        tx,
        'conversation.email',
        { conversationId: conversation.id, side: recipient },
        {
          singleton: {
            key: `conversation:${conversation.id}:${recipient}`,
            seconds: CONVERSATION_EMAIL_DELAY_SECONDS,
          },
          startAfter: CONVERSATION_EMAIL_DELAY_SECONDS,
        },
      )
      return { conversationId: conversation.id, messageId }
    })
  } catch (error) {
    for (const file of stored) await ctx.files.delete(file.key).catch(() => {})
    throw error
  }
}

/**
 * Takes a conversation (`me`) or gives it back (`none`), staff only.
 * @throws AppError `unauthorized`; `forbidden`; `not_found`.
 */
export async function assignConversation(
  { db, actor }: ServiceContext,
  conversationId: string,
  to: 'me' | 'none',
): Promise<void> {
  const user = requireActor(actor, NEEDS_SIGN_IN, { staffOnly: 'Conversations are assigned by staff' })
  requireStaffAction(user, 'write_note')
  if (!isUuid(conversationId)) throw new AppError('not_found', 'Conversation not found')
  const updated = await db
    .update(conversations)
    .set({ assignedTo: to === 'me' ? user.id : null })
    .where(eq(conversations.id, conversationId))
    .returning({ id: conversations.id })
  if (updated.length === 0) throw new AppError('not_found', `Conversation ${conversationId} not found`)
}

export type WaitingConversation = {
  id: string
  kind: 'request' | 'shipment'
  orderId: string
  number: string
  customerName: string
  waitingSince: Date
  assignedTo: { id: string; name: string } | null
}

/**
 * Every conversation waiting for a staff answer, oldest first (at most `limit`).
 * @throws AppError `unauthorized`; `forbidden`.
 */
export async function listWaitingConversations(
  { db, actor }: ServiceContext,
  { limit = 200 }: { limit?: number } = {},
): Promise<WaitingConversation[]> {
  const user = requireActor(actor, NEEDS_SIGN_IN, { staffOnly: 'Conversations waiting are for staff' })
  requireStaffAction(user, 'write_note')
  const customer = alias(users, 'customer')
  const assignee = alias(users, 'assignee')
  const rows = await db
    .select({
      id: conversations.id,
      requestId: conversations.requestId,
      shipmentId: conversations.shipmentId,
      requestNumber: purchaseRequests.number,
      shipmentNumber: shipments.number,
      customerName: customer.name,
      waitingSince: conversations.waitingSince,
      assignedId: conversations.assignedTo,
      assignedName: assignee.name,
    })
    .from(conversations)
    .innerJoin(customer, eq(customer.id, conversations.customerId))
    .leftJoin(assignee, eq(assignee.id, conversations.assignedTo))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, conversations.requestId))
    .leftJoin(shipments, eq(shipments.id, conversations.shipmentId))
    .where(isNotNull(conversations.waitingSince))
    .orderBy(asc(conversations.waitingSince), asc(conversations.id))
    .limit(limit)
  return rows.map((row) => ({
    id: row.id,
    kind: row.requestId ? 'request' : 'shipment',
    orderId: (row.requestId ?? row.shipmentId) as string,
    number: (row.requestNumber ?? row.shipmentNumber) as string,
    customerName: row.customerName,
    waitingSince: row.waitingSince as Date,
    assignedTo: row.assignedId && row.assignedName ? { id: row.assignedId, name: row.assignedName } : null,
  }))
}

/**
 * One file of a message, for the order's customer and staff; anyone else gets `not_found`, as
 * for a missing id.
 */
export async function getConversationAttachment(
  ctx: OrderContext,
  attachmentId: string,
): Promise<{ bytes: Uint8Array; contentType: string; etag: string; position: number; number: string }> {
  const user = requireActor(ctx.actor, NEEDS_SIGN_IN)
  const missing = () => new AppError('not_found', `Attachment ${String(attachmentId).slice(0, 80)} not found`)
  if (!isUuid(attachmentId)) throw missing()
  const [row] = await ctx.db
    .select({
      customerId: conversations.customerId,
      key: conversationAttachments.fileKey,
      contentType: conversationAttachments.contentType,
      sha256: conversationAttachments.sha256,
      position: conversationAttachments.position,
      requestNumber: purchaseRequests.number,
      shipmentNumber: shipments.number,
    })
    .from(conversationAttachments)
    .innerJoin(conversationMessages, eq(conversationMessages.id, conversationAttachments.messageId))
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, conversations.requestId))
    .leftJoin(shipments, eq(shipments.id, conversations.shipmentId))
    .where(eq(conversationAttachments.id, attachmentId))
  if (!row || !(isStaff(user) || row.customerId === user.id)) throw missing()
  const bytes = await ctx.files.get(row.key)
  if (!bytes) throw missing()
  return {
    bytes,
    contentType: row.contentType,
    etag: `"${row.sha256}"`,
    position: row.position,
    number: (row.requestNumber ?? row.shipmentNumber ?? 'message') as string,
  }
}

export type UnreadDigest = {
  conversationId: string
  /** The last message's time: what `markEmailed` is given once the e-mail is sent. */
  upTo: Date
  kind: 'request' | 'shipment'
  orderId: string
  number: string
  customer: { id: string; name: string; email: string; language: string | null }
  messages: { authorName: string | null; body: string; files: number; createdAt: Date }[]
}

/**
 * For the grouped e-mail (job `conversation.email`): the other side's messages this side has
 * neither read in the app nor been e-mailed. Null when there are none (read meanwhile, or a
 * second job of one burst). Once sent, `markEmailed` moves the mark past them.
 */
export async function unreadForEmail(
  db: Database,
  conversationId: string,
  side: ConversationSide,
): Promise<UnreadDigest | null> {
  const [row] = await db
    .select({
      id: conversations.id,
      requestId: conversations.requestId,
      shipmentId: conversations.shipmentId,
      requestNumber: purchaseRequests.number,
      shipmentNumber: shipments.number,
      customerReadAt: conversations.customerReadAt,
      staffReadAt: conversations.staffReadAt,
      customerEmailedAt: conversations.customerEmailedAt,
      staffEmailedAt: conversations.staffEmailedAt,
      customerId: users.id,
      customerName: users.name,
      customerEmail: users.email,
      customerLanguage: users.language,
    })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.customerId))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, conversations.requestId))
    .leftJoin(shipments, eq(shipments.id, conversations.shipmentId))
    .where(eq(conversations.id, conversationId))
  if (!row) return null
  const marks =
    side === 'customer' ? [row.customerReadAt, row.customerEmailedAt] : [row.staffReadAt, row.staffEmailedAt]
  const since = marks.reduce<Date | null>(
    (latest, mark) => (mark && (!latest || mark > latest) ? mark : latest),
    null,
  )
  const author = alias(users, 'author')
  const messages = await db
    .select({
      id: conversationMessages.id,
      authorName: author.name,
      body: conversationMessages.body,
      createdAt: conversationMessages.createdAt,
      files: sql<number>`(select count(*) from ${conversationAttachments} where ${conversationAttachments.messageId} = ${conversationMessages.id})::int`,
    })
    .from(conversationMessages)
    .leftJoin(author, eq(author.id, conversationMessages.authorId))
    .where(
      and(
        eq(conversationMessages.conversationId, conversationId),
        eq(conversationMessages.authorSide, side === 'customer' ? 'staff' : 'customer'),
        since ? gt(conversationMessages.createdAt, since) : undefined,
      ),
    )
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
  const last = messages.at(-1)
  if (!last) return null
  return {
    upTo: last.createdAt,
    conversationId,
    kind: row.requestId ? 'request' : 'shipment',
    orderId: (row.requestId ?? row.shipmentId) as string,
    number: (row.requestNumber ?? row.shipmentNumber) as string,
    customer: {
      id: row.customerId,
      name: row.customerName,
      email: row.customerEmail,
      language: row.customerLanguage,
    },
    messages: messages.map(({ id: _, ...message }) => message),
  }
}

/** The side has been e-mailed every message of the other up to `upTo` (never moved back). */
export async function markEmailed(
  db: Database,
  conversationId: string,
  side: ConversationSide,
  upTo: Date,
): Promise<void> {
  const column = side === 'customer' ? conversations.customerEmailedAt : conversations.staffEmailedAt
  await db
    .update(conversations)
    .set(side === 'customer' ? { customerEmailedAt: upTo } : { staffEmailedAt: upTo })
    .where(
      and(
        eq(conversations.id, conversationId),
        sql`(${column} is null or ${column} < ${upTo.toISOString()}::timestamptz)`,
      ),
    )
}
