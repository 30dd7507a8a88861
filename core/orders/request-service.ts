import { and, type Column, count, desc, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm'
import { voidOpenInvoice } from '#core/billing/invoice-service.ts'
import { ownerHasPendingTransfer } from '#core/billing/pending-transfers.ts'
import { keptPreviews, type ShownPreview } from '#core/link-preview/preview-service.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import { type ActorKind, actorKindFor } from '#core/shared/actor-kind.ts'
import { isConstraintViolation } from '#core/shared/database-errors.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { decodeTimeCursor, keysetPage, newestFirst, olderThan, type TimeCursor } from '#core/shared/keyset.ts'
import { isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { Database } from '#db/client.ts'
import {
  invoices,
  orderEvents,
  payments,
  purchaseRequests,
  requestItems,
  requestPhotos,
  stores,
  transferNotices,
  users,
} from '#db/schema/index.ts'
import type { OrderContext } from './order-context.ts'
import { applyRequestEvent } from './order-events.ts'
import { moveItems } from './request-items.ts'
import {
  eventsAvailable,
  isRequestStatus,
  REQUEST_STATUSES,
  type RequestEvent,
  type RequestStatus,
  transition,
} from './request-machine.ts'
import { type PhotoProcessor, preparePhotos } from './request-photos.ts'
import {
  type CancelRequestInput,
  CancelRequestSchema,
  type SubmitRequestInput,
  SubmitRequestSchema,
} from './request-schemas.ts'
import { type KnownShop, shopHostOf } from './shop-hosts.ts'

/** A refused form: `invalid`, reason `requestInvalid`. */
const REFUSED = { message: 'Purchase request input refused', reason: 'requestInvalid' }

/** Thrown (`unauthorized`) to anyone not signed in. */
const SIGNED_IN = 'Purchase requests need a signed-in user'

/** Requests per page, in a customer's history and in the staff queue. */
export const REQUESTS_PAGE_SIZE = 20

const ENTITY = 'purchase_request'

export type RequestItemView = {
  id: string
  position: number
  url: string
  shopHost: string
  storeName: string | null
  /**
   * The item's title as staff wrote it: to staff always, to the customer once it is on a quote
   * they received (a draft stays staff's); null until then. Links read it (ADR 038).
   */
  title: string | null
  quantity: number
  notes: string | null
  status: string
  /** The customer's photo of the item, if they sent one (served by the request's photo route). */
  photo: { id: string; width: number; height: number } | null
  /** What the link's shop page said when it was read (issue 31); never a price by itself. */
  preview: ShownPreview | null
}

export type RequestEventView = {
  id: number
  event: string
  fromStatus: string | null
  toStatus: string | null
  actorKind: string
  note: string | null
  /** Event facts (the quote's invoice number and total…). */
  data: Record<string, unknown>
  /** False for staff-only events (internal notes, saved prices); the customer never gets those. */
  visibleToCustomer: boolean
  createdAt: Date
}

export type RequestSummary = {
  id: string
  number: string
  status: RequestStatus
  submittedAt: Date
  items: Pick<RequestItemView, 'position' | 'url' | 'shopHost' | 'quantity'>[]
  /**
   * Its quote's amounts (the newest quote that was not replaced or withdrawn: open, paid or
   * expired), or null before there is one (docs/decisions/036: there is no estimate to show
   * before the quote; staff's draft prices are theirs until they send it).
   */
  quote: RequestQuoteSummary | null
}

export type RequestQuoteSummary = {
  invoiceNumber: string
  status: 'open' | 'paid' | 'expired'
  itemsJpy: number
  domesticShippingJpy: number
  serviceFeeJpy: number
  taxJpy: number
  totalJpy: number
  dueAt: Date
  /** A payment of it is held for review, or the customer said they paid it by transfer: nothing to pay now. */
  beingChecked: boolean
}

export type RequestDetail = {
  id: string
  number: string
  status: RequestStatus
  version: number
  locale: string
  customerNote: string | null
  submittedAt: Date
  closedAt: Date | null
  items: RequestItemView[]
  /** The customer sees the events meant for them; staff see all. Oldest first. */
  events: RequestEventView[]
  /** For staff only; null for the customer. */
  customer: { id: string; name: string; email: string } | null
  /** What the asking actor could do now (the page's buttons). */
  actions: RequestEvent[]
}

export type QueueRow = {
  id: string
  number: string
  status: RequestStatus
  submittedAt: Date
  customerName: string
  customerEmail: string
  itemCount: number
  shopHosts: string[]
}

export type Page<Row> = { rows: Row[]; nextCursor: string | null }

export { shopHostOf }

async function storeIdsByHost(db: Database): Promise<(host: string) => number | null> {
  const rows = await db.select({ id: stores.id, url: stores.url }).from(stores)
  const known = rows.map((row) => ({ id: row.id, host: shopHostOf(row.url) }))
  return (host) => known.find((store) => host === store.host || host.endsWith(`.${store.host}`))?.id ?? null
}

/**
 * The shops of the store guide by host, for the request form to say next to each link whether
 * we know its shop or will check it first (ADR 038). Hidden stores are not named.
 */
export async function knownShops(db: Database): Promise<KnownShop[]> {
  const rows = await db
    .select({ name: stores.name, url: stores.url })
    .from(stores)
    .where(eq(stores.hidden, false))
    .orderBy(stores.name)
  return rows.map((row) => ({ name: row.name, host: shopHostOf(row.url) }))
}

/**
 * A customer sends links, each with an optional photo: every photo is checked and re-encoded
 * first (outside any transaction), then the request, its items, their photos, the first history
 * row and the notifications are written in one transaction. The shop is recognised from the
 * link's host when it is in the store guide. A price or total is not part of the input: the
 * server prices a request when staff quote it.
 * @throws AppError `unauthorized` without a user, `invalid` (field errors) for bad input or a
 * refused photo (`items[n].photo`); then nothing is written.
 */
export async function submitRequest(
  { db, actor, jobs }: OrderContext,
  input: SubmitRequestInput,
  meta: { locale: 'es' | 'en' },
  { processPhoto }: { processPhoto?: PhotoProcessor } = {},
): Promise<{ id: string; number: string }> {
  const user = requireActor(actor, SIGNED_IN)
  const parsed = SubmitRequestSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  const step = transition(null, 'submit', 'customer')
  if (!step.ok) throw new Error(`The machine refuses submit: ${step.refusal}`)
  const { submissionKey } = parsed.data
  const sentBefore = () => requestOfSubmission(db, user.id, submissionKey)
  // The same form again after its request was stored: that request, nothing new.
  const earlier = await sentBefore()
  if (earlier) return earlier
  const photos = await preparePhotos(parsed.data.items, processPhoto)
  const storeIdOf = await storeIdsByHost(db)
  // What reading each link gave within the hour (issue 31): kept for staff, never a price.
  const previews = await keptPreviews(
    db,
    parsed.data.items.map((item) => item.url),
  )

  return db
    .transaction(async (tx) => {
      const [request] = await tx
        .insert(purchaseRequests)
        .values({
          userId: user.id,
          status: step.to,
          customerNote: parsed.data.note ?? null,
          locale: meta.locale,
          submissionKey: submissionKey ?? null,
        })
        .returning({ id: purchaseRequests.id, number: purchaseRequests.number })
      if (!request) throw new Error('Unable to store a purchase request: no row returned')
      const items = await tx
        .insert(requestItems)
        .values(
          parsed.data.items.map((item, index) => {
            const shopHost = shopHostOf(item.url)
            return {
              requestId: request.id,
              position: index + 1,
              url: item.url,
              shopHost,
              storeId: storeIdOf(shopHost),
              quantity: item.quantity,
              notes: item.notes ?? null,
              preview: previews.get(item.url) ?? null,
            }
          }),
        )
        .returning({ id: requestItems.id, position: requestItems.position })
      const photoRows = items.flatMap((item) => {
        const photo = photos.get(item.position - 1)
        return photo
          ? [
              {
                requestId: request.id,
                itemId: item.id,
                contentType: photo.contentType,
                bytes: photo.bytes,
                width: photo.width,
                height: photo.height,
                byteSize: photo.bytes.byteLength,
                sha256: photo.sha256,
              },
            ]
          : []
      })
      if (photoRows.length > 0) await tx.insert(requestPhotos).values(photoRows)
      await recordOrderEvent(tx, {
        entityType: ENTITY,
        entityId: request.id,
        event: 'submit',
        from: null,
        to: step.to,
        actor: { kind: 'customer', id: user.id },
      })
      await notifyCustomer(tx, jobs, {
        userId: user.id,
        type: 'request_received',
        params: { number: request.number },
        requestId: request.id,
      })
      const [customer] = await tx.select({ name: users.name }).from(users).where(eq(users.id, user.id))
      await notifyStaff(tx, jobs, {
        type: 'new_request',
        params: { number: request.number, customer: customer?.name ?? '', count: parsed.data.items.length },
        link: `/admin-dashboard/requests/${request.id}`,
        requestId: request.id,
      })
      return request
    })
    .catch(async (error: unknown) => {
      // The same form sent twice at once: the unique key let one through; this is the other.
      if (!isConstraintViolation(error, 'unique', 'purchase_requests_submission_key')) throw error
      const first = await sentBefore()
      if (!first) throw error
      return first
    })
}

async function requestOfSubmission(
  db: Database,
  userId: string,
  submissionKey: string | undefined,
): Promise<{ id: string; number: string } | null> {
  if (!submissionKey) return null
  const [row] = await db
    .select({ id: purchaseRequests.id, number: purchaseRequests.number })
    .from(purchaseRequests)
    .where(and(eq(purchaseRequests.userId, userId), eq(purchaseRequests.submissionKey, submissionKey)))
  return row ?? null
}

function pageOf<Row extends { submittedAt: Date; id: string }>(rows: Row[]): Page<Row> {
  return keysetPage(rows, REQUESTS_PAGE_SIZE, (row) => row.submittedAt)
}

/** Newest first, the order the requests' cursor pages through. */
const newestRequestsFirst = () => newestFirst(purchaseRequests.submittedAt, purchaseRequests.id)
const olderRequests = (cursor: TimeCursor | null) =>
  olderThan(purchaseRequests.submittedAt, purchaseRequests.id, cursor)

function statusOf(value: string): RequestStatus {
  if (!isRequestStatus(value)) throw new Error(`Unknown purchase request status ${value}`)
  return value
}

/** The signed-in customer's own requests, newest first, 20 a page, each with its items. */
export async function listMyRequests(
  { db, actor }: ServiceContext,
  { cursor }: { cursor?: string | null },
): Promise<Page<RequestSummary>> {
  const user = requireActor(actor, SIGNED_IN)
  const rows = await db
    .select({
      id: purchaseRequests.id,
      number: purchaseRequests.number,
      status: purchaseRequests.status,
      submittedAt: purchaseRequests.submittedAt,
    })
    .from(purchaseRequests)
    .where(and(eq(purchaseRequests.userId, user.id), olderRequests(decodeTimeCursor(cursor))))
    .orderBy(...newestRequestsFirst())
    .limit(REQUESTS_PAGE_SIZE + 1)
  const page = pageOf(rows)
  const ids = page.rows.map((row) => row.id)
  const items = ids.length
    ? await db
        .select({
          requestId: requestItems.requestId,
          position: requestItems.position,
          url: requestItems.url,
          shopHost: requestItems.shopHost,
          quantity: requestItems.quantity,
        })
        .from(requestItems)
        .where(inArray(requestItems.requestId, ids))
        .orderBy(requestItems.requestId, requestItems.position)
    : []
  const quotes = await quotesOf(db, ids)
  return {
    nextCursor: page.nextCursor,
    rows: page.rows.map((row) => ({
      ...row,
      status: statusOf(row.status),
      items: items.filter((item) => item.requestId === row.id).map(({ requestId: _, ...item }) => item),
      quote: quotes.get(row.id) ?? null,
    })),
  }
}

/**
 * Each request's quote, for the history: the newest purchase invoice that is not void, with
 * whether a payment of it is being checked (held, or a bank transfer the customer reported). One
 * query for the page, on the invoices' request index.
 */
async function quotesOf(
  db: Database,
  requestIds: readonly string[],
): Promise<Map<string, RequestQuoteSummary>> {
  if (requestIds.length === 0) return new Map()
  const rows = await db
    .selectDistinctOn([invoices.requestId], {
      requestId: invoices.requestId,
      invoiceNumber: invoices.number,
      status: invoices.status,
      itemsJpy: invoices.itemsJpy,
      domesticShippingJpy: invoices.domesticShippingJpy,
      serviceFeeJpy: invoices.serviceFeeJpy,
      taxJpy: invoices.taxJpy,
      totalJpy: invoices.totalJpy,
      dueAt: invoices.dueAt,
      // The invoice named by its table: drizzle writes a selected expression's columns bare.
      beingChecked: sql<boolean>`(exists (select 1 from ${payments} p where p.invoice_id = "invoices"."id" and p.status = 'held') or exists (select 1 from ${transferNotices} n where n.invoice_id = "invoices"."id" and n.status = 'pending'))`,
    })
    .from(invoices)
    .where(
      and(
        inArray(invoices.requestId, [...requestIds]),
        eq(invoices.kind, 'purchase'),
        sql`${invoices.status} <> 'void'`,
      ),
    )
    .orderBy(invoices.requestId, desc(invoices.issuedAt))
  return new Map(
    rows.flatMap(({ requestId, status, ...quote }) =>
      requestId && (status === 'open' || status === 'paid' || status === 'expired')
        ? [[requestId, { ...quote, status }] as const]
        : [],
    ),
  )
}

/**
 * One request with its items and history, for its owner or staff. Anyone else gets `not_found`,
 * as for an id that does not exist, so ids cannot be probed.
 */
export async function getRequest({ db, actor }: ServiceContext, id: string): Promise<RequestDetail> {
  requireActor(actor, SIGNED_IN)
  const notFound = () =>
    new AppError('not_found', `Purchase request ${id} not found`, { reason: 'requestNotFound' })
  if (!isUuid(id)) throw notFound()
  const [row] = await db
    .select({
      request: purchaseRequests,
      customer: { id: users.id, name: users.name, email: users.email },
    })
    .from(purchaseRequests)
    .innerJoin(users, eq(users.id, purchaseRequests.userId))
    .where(eq(purchaseRequests.id, id))
  const kind = row ? actorKindFor(actor, row.request) : null
  if (!row || !kind) throw notFound()
  const staff = kind === 'staff'
  const [items, events] = await Promise.all([
    db
      .select({
        id: requestItems.id,
        position: requestItems.position,
        url: requestItems.url,
        shopHost: requestItems.shopHost,
        storeName: stores.name,
        title: requestItems.title,
        quantity: requestItems.quantity,
        notes: requestItems.notes,
        status: requestItems.status,
        photo: { id: requestPhotos.id, width: requestPhotos.width, height: requestPhotos.height },
        preview: sql<ShownPreview | null>`${requestItems.preview}`,
      })
      .from(requestItems)
      .leftJoin(stores, eq(stores.id, requestItems.storeId))
      .leftJoin(requestPhotos, eq(requestPhotos.itemId, requestItems.id))
      .where(eq(requestItems.requestId, id))
      .orderBy(requestItems.position),
    db
      .select({
        id: orderEvents.id,
        event: orderEvents.event,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actorKind: orderEvents.actorKind,
        note: orderEvents.note,
        data: sql<Record<string, unknown>>`${orderEvents.data}`,
        visibleToCustomer: orderEvents.visibleToCustomer,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.entityType, ENTITY),
          eq(orderEvents.entityId, id),
          staff ? undefined : eq(orderEvents.visibleToCustomer, true),
        ),
      )
      .orderBy(orderEvents.id),
  ])
  const status = statusOf(row.request.status)
  return {
    id: row.request.id,
    number: row.request.number,
    status,
    version: row.request.version,
    locale: row.request.locale,
    customerNote: row.request.customerNote,
    submittedAt: row.request.submittedAt,
    closedAt: row.request.closedAt,
    // A title not yet on a quote the customer received is a draft: staff's only.
    items: items.map((item) =>
      staff || !['pending', 'rejected', 'cancelled'].includes(item.status) ? item : { ...item, title: null },
    ),
    events,
    customer: staff ? row.customer : null,
    actions: eventsAvailable(status, kind),
  }
}

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
function likePattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** ILIKE in the "C" collation: for machine-made ASCII text (numbers, links), the cheap case folding. */
function ilikeAscii(column: Column, pattern: string) {
  return ilike(sql`${column} collate "C"`, pattern)
}

/**
 * How many matching requests a search counts. Up to here the queue says how many match in each
 * status; past it the search is a broad one (a shop, an e-mail provider) and the queue says "N or
 * more" (docs/decisions/022-orders-at-scale.md).
 */
export const QUEUE_SEARCH_COUNT_LIMIT = 2000

type Match = { id: string; status: string; submittedAt: Date }

/**
 * The requests a staff search finds, read from the trigram indexes (pg_trgm) in small steps whose
 * plans stay simple: the links and the customers containing the text, then the requests of those
 * or whose number contains it. More than `limit`: a broad search, and how many were seen.
 */
async function findMatches(
  db: Database,
  search: string,
  limit: number,
): Promise<{ broad: false; matches: Match[] } | { broad: true; atLeast: number }> {
  const pattern = likePattern(search)
  const [links, customers] = await Promise.all([
    db
      .select({ requestId: requestItems.requestId })
      .from(requestItems)
      .where(ilikeAscii(requestItems.url, pattern))
      .limit(limit + 1),
    db
      .select({ id: users.id })
      .from(users)
      .where(or(ilike(users.name, pattern), ilike(users.email, pattern)))
      .limit(limit + 1),
  ])
  const linked = [...new Set(links.map((row) => row.requestId))]
  if (links.length > limit) return { broad: true, atLeast: linked.length }
  const matches = await db
    .select({
      id: purchaseRequests.id,
      status: purchaseRequests.status,
      submittedAt: purchaseRequests.submittedAt,
    })
    .from(purchaseRequests)
    .where(
      or(
        linked.length ? sql`${purchaseRequests.id} = any(${sql.param(linked)}::uuid[])` : undefined,
        customers.length
          ? sql`${purchaseRequests.userId} = any(${sql.param(customers.map((row) => row.id))}::text[])`
          : undefined,
        ilikeAscii(purchaseRequests.number, pattern),
      ),
    )
    .limit(limit + 1)
  return matches.length > limit || customers.length > limit
    ? { broad: true, atLeast: matches.length }
    : { broad: false, matches }
}

/** The same search as a condition on one request (its customer joined), checked row by row. */
function searchCondition(db: Database, search: string) {
  const pattern = likePattern(search)
  return or(
    ilike(users.name, pattern),
    ilike(users.email, pattern),
    ilikeAscii(purchaseRequests.number, pattern),
    exists(
      db
        .select({ one: sql`1` })
        .from(requestItems)
        .where(and(eq(requestItems.requestId, purchaseRequests.id), ilikeAscii(requestItems.url, pattern))),
    ),
  )
}

const queueRowFields = {
  id: purchaseRequests.id,
  number: purchaseRequests.number,
  status: purchaseRequests.status,
  submittedAt: purchaseRequests.submittedAt,
  customerName: users.name,
  customerEmail: users.email,
  itemCount: sql<number>`(select count(*)::int from ${requestItems} where ${requestItems.requestId} = ${purchaseRequests.id})`,
  shopHosts: sql<
    string[]
  >`(select coalesce(array_agg(distinct ${requestItems.shopHost}), '{}') from ${requestItems} where ${requestItems.requestId} = ${purchaseRequests.id})`,
}

export type QueueCounts = Record<RequestStatus, number>

/**
 * The warehouse's work as a filter of the queue (the staff's work for today, docs/decisions/036):
 * requests with an item still to buy at the shop, or with an item bought and not yet here. Read
 * from the small partial index of such items (`request_items_work_idx`).
 */
export const QUEUE_WORK = { to_buy: 'to_buy', to_receive: 'ordered' } as const
export type QueueWork = keyof typeof QUEUE_WORK

export function isQueueWork(value: unknown): value is QueueWork {
  return typeof value === 'string' && Object.hasOwn(QUEUE_WORK, value)
}

function workCondition(work: QueueWork | null | undefined): SQL | undefined {
  if (!work) return undefined
  return sql`${purchaseRequests.id} in (select ${requestItems.requestId} from ${requestItems} where ${requestItems.status} = ${QUEUE_WORK[work]})`
}

function noCounts(): QueueCounts {
  return Object.fromEntries(REQUEST_STATUSES.map((name) => [name, 0])) as QueueCounts
}

/** Newest first, the id breaking ties (uuids compare as their lower-case text does). */
function newer(a: { submittedAt: Date; id: string }, b: { submittedAt: Date; id: string }) {
  const at = b.submittedAt.getTime() - a.submittedAt.getTime()
  return at !== 0 ? at : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/**
 * The staff queue: newest first, 20 a page, optionally one status, optionally a search over the
 * customer's name and e-mail, the request number and the items' links; with how many requests
 * each status has (under that search).
 * Without a search the page walks an index and the counts read the status index. A search first
 * reads its matches from the trigram indexes, up to QUEUE_SEARCH_COUNT_LIMIT: within it, the
 * counts are exact and the page is picked from the matches; past it (a broad search) `counts` is
 * null, `matchesAtLeast` says how many were seen, and the page walks newest first, where broad
 * matches are dense.
 * @throws AppError `forbidden` for anyone but staff.
 */
export async function listRequestQueue(
  { db, actor }: ServiceContext,
  {
    status,
    q,
    cursor,
    work,
  }: { status?: RequestStatus | null; q?: string | null; cursor?: string | null; work?: QueueWork | null },
): Promise<
  Page<QueueRow> & { counts: QueueCounts | null; matchesAtLeast: number | null; workCount: number | null }
> {
  requireActor(actor, SIGNED_IN)
  if (!isStaff(actor)) throw new AppError('forbidden', 'The request queue is for staff')
  const search = q?.trim().slice(0, 200)
  const after = decodeTimeCursor(cursor)
  const pageWhere = (condition?: SQL) =>
    db
      .select(queueRowFields)
      .from(purchaseRequests)
      .innerJoin(users, eq(users.id, purchaseRequests.userId))
      .where(
        and(
          status ? eq(purchaseRequests.status, status) : undefined,
          olderRequests(after),
          workCondition(work),
          condition,
        ),
      )
      .orderBy(...newestRequestsFirst())
      .limit(REQUESTS_PAGE_SIZE + 1)
  const answer = (
    rows: (Omit<QueueRow, 'status'> & { status: string })[],
    counts: QueueCounts | null,
    matchesAtLeast: number | null = null,
  ) => {
    const page = pageOf(rows)
    return {
      counts,
      matchesAtLeast,
      workCount,
      nextCursor: page.nextCursor,
      rows: page.rows.map((row) => ({ ...row, status: statusOf(row.status) })),
    }
  }

  // How many requests have that work (the filter's own count, from its partial index).
  const workCount = work
    ? ((
        await db
          .select({ count: sql<number>`count(distinct ${requestItems.requestId})::int` })
          .from(requestItems)
          .where(eq(requestItems.status, QUEUE_WORK[work]))
      )[0]?.count ?? 0)
    : null

  if (!search) {
    const [rows, countRows] = await Promise.all([
      pageWhere(),
      db
        .select({ status: purchaseRequests.status, count: count() })
        .from(purchaseRequests)
        .groupBy(purchaseRequests.status),
    ])
    const counts = noCounts()
    for (const row of countRows) if (isRequestStatus(row.status)) counts[row.status] = row.count
    return answer(rows, counts)
  }

  const found = await findMatches(db, search, QUEUE_SEARCH_COUNT_LIMIT)
  if (found.broad) return answer(await pageWhere(searchCondition(db, search)), null, found.atLeast)
  const { matches } = found
  const counts = noCounts()
  for (const row of matches) if (isRequestStatus(row.status)) counts[row.status]++
  const picked = matches
    .filter(
      (row) =>
        (!status || row.status === status) &&
        (!after || newer(row, { submittedAt: after.at, id: after.id.toLowerCase() }) > 0),
    )
    .sort(newer)
    // With a work filter the matches are narrowed again by the query: it picks the page.
    .slice(0, work ? QUEUE_SEARCH_COUNT_LIMIT : REQUESTS_PAGE_SIZE + 1)
    .map((row) => row.id)
  return answer(picked.length ? await pageWhere(inArray(purchaseRequests.id, picked)) : [], counts)
}

/**
 * The owner (or staff) cancels a request that has not been paid: pending or quoted, on the
 * version their page showed (two clicks: one applies, the other finds the version moved). Its
 * open quote is voided and its items cancelled in the same transaction; staff must give a reason,
 * the customer may (docs/decisions/037). The customer is told, in the app and by e-mail, who
 * cancelled it and why (`request_cancelled` by themselves, `request_cancelled_by_staff`).
 * @throws AppError `not_found` (not theirs), `invalid` (`reasonRequired` for staff), `conflict`
 * (changed meanwhile, or not cancellable).
 */
export async function cancelRequest({ db, actor, jobs }: OrderContext, input: CancelRequestInput) {
  const parsed = CancelRequestSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  const user = requireActor(actor, SIGNED_IN)
  const { id, version, reason } = parsed.data
  try {
    return await db.transaction(async (tx) => {
      const [request] = await tx
        .select({ userId: purchaseRequests.userId })
        .from(purchaseRequests)
        .where(eq(purchaseRequests.id, id))
      const kind: ActorKind | null = request ? actorKindFor(user, request) : null
      if (!request || !kind) {
        throw new AppError('not_found', `Purchase request ${id} not found`, { reason: 'requestNotFound' })
      }
      if (kind === 'staff' && !reason) {
        throw new AppError('invalid', 'Staff cancel a request with a reason', {
          reason: 'requestInvalid',
          fieldErrors: { reason: ['reasonRequired'] },
        })
      }
      const now = new Date()
      const who = { kind, id: user.id }
      const applied = await applyRequestEvent(tx, {
        requestId: id,
        event: 'cancel',
        actor: who,
        expectedVersion: version,
        note: reason ?? null,
        set: { closedAt: now },
      })
      // The customer said they paid it by transfer: staff check that first (ADR 036). Asked with
      // the request locked, so a report at the same moment is either seen here or finds it closed.
      if (kind === 'customer' && (await ownerHasPendingTransfer(tx, { requestId: id }))) {
        throw new AppError('conflict', `Request ${id} has a bank transfer being checked`, {
          reason: 'transferBeingChecked',
        })
      }
      // A cancelled request's open quote can no longer be paid (docs/decisions/021).
      const voided = await voidOpenInvoice(tx, id, who, now)
      await moveItems(tx, { requestId: id, event: 'cancel', actor: who, at: now })
      await notifyCustomer(tx, jobs, {
        userId: applied.userId,
        type: kind === 'staff' ? 'request_cancelled_by_staff' : 'request_cancelled',
        params: {
          number: applied.number,
          ...(reason ? { reason } : {}),
          ...(voided ? { invoice: voided.number } : {}),
        },
        requestId: id,
      })
      // The customer changed their mind: staff stop quoting or waiting for the payment (ADR 036).
      if (kind === 'customer') {
        await notifyStaff(tx, jobs, {
          type: 'request_cancelled',
          params: { number: applied.number, ...(reason ? { reason } : {}) },
          link: `/admin-dashboard/requests/${id}`,
          requestId: id,
        })
      }
      return { status: applied.to, version: applied.version }
    })
  } catch (error) {
    if (isAppError(error, 'conflict') && error.details.reason === 'requestNotAllowed') {
      throw new AppError('conflict', error.message, { reason: 'requestNotCancellable' })
    }
    throw error
  }
}
