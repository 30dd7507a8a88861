import { and, asc, eq } from 'drizzle-orm'
import { issuePurchaseInvoice, replacedInvoiceId, voidOpenInvoice } from '#core/billing/invoice-service.ts'
import { quoteEstimateParams } from '#core/landed-cost/customer-estimate.ts'
import { customsRatesOf } from '#core/landed-cost/landed-cost.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import { basisPointsOf, type PricedItem, priceQuote, type QuoteTotals } from '#core/pricing/quote-pricing.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import type { Executor } from '#db/client.ts'
import { purchaseRequests, requestItems, users } from '#db/schema/index.ts'
import type { OrderContext } from './order-context.ts'
import { applyRequestEvent, REQUEST_ENTITY } from './order-events.ts'
import {
  type AddNoteInput,
  AddNoteSchema,
  type RejectRequestInput,
  RejectRequestSchema,
  type RequestVersionInput,
  RequestVersionSchema,
  type SaveQuoteDraftInput,
  SaveQuoteDraftSchema,
} from './quote-schemas.ts'
import { moveItems } from './request-items.ts'
import { isRequestStatus, type RequestStatus, transition } from './request-machine.ts'
import { fieldNameOf } from './request-schemas.ts'

/**
 * What staff do on a request page (docs/decisions/021-quotes-invoices-payments.md): price the
 * items (a draft), approve (issue the quote: an invoice with frozen lines, and tell the
 * customer), reject with a reason, revise an issued quote (void it, back to pricing), write notes.
 * Each is one transaction on the version the page showed (compare-and-set), with its history row
 * and notifications: a double click or a second admin applies nothing twice.
 */

export type QuoteDraftItem = {
  id: string
  position: number
  url: string
  shopHost: string
  quantity: number
  title: string | null
  unitPriceJpy: number | null
  domesticShippingJpy: number | null
}

export type QuoteDraft = {
  items: QuoteDraftItem[]
  /** The settings a quote issued now would use. */
  pricing: { serviceFeeJpy: number; taxRateBasisPoints: number; daysToPay: number }
  /** Totals of the priced items with those settings; `complete` once every item has a title and a price. */
  totals: QuoteTotals
  complete: boolean
}

export type LockedRequest = {
  id: string
  userId: string
  number: string
  locale: 'es' | 'en'
  status: RequestStatus
  version: number
}

/**
 * Locks the request's row for this transaction and checks the version the page showed.
 * @throws AppError `not_found`, `conflict` (`requestChanged`).
 */
export async function lockRequest(tx: Executor, id: string, expectedVersion: number): Promise<LockedRequest> {
  const [row] = await tx
    .select({
      id: purchaseRequests.id,
      userId: purchaseRequests.userId,
      number: purchaseRequests.number,
      locale: purchaseRequests.locale,
      status: purchaseRequests.status,
      version: purchaseRequests.version,
    })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, id))
    .for('update')
  if (!row) throw new AppError('not_found', `Purchase request ${id} not found`, { reason: 'requestNotFound' })
  if (row.version !== expectedVersion) {
    throw new AppError('conflict', `Purchase request ${id} changed (version ${row.version})`, {
      reason: 'requestChanged',
    })
  }
  if (!isRequestStatus(row.status)) throw new Error(`Unknown purchase request status ${row.status}`)
  return { ...row, locale: row.locale === 'en' ? 'en' : 'es', status: row.status }
}

/** A change to the request that is not a status change (prices, a note): the version moves on. */
export async function bumpVersion(tx: Executor, request: LockedRequest): Promise<number> {
  const version = await setIfVersion(tx, purchaseRequests, {
    id: request.id,
    version: request.version,
    set: {},
  })
  if (version === null)
    throw new AppError('conflict', `Purchase request ${request.id} changed meanwhile`, {
      reason: 'requestChanged',
    })
  return version
}

/** Refuses an event the machine refuses, before anything is written (a number taken, a line stored). */
function requireTransition(request: LockedRequest, event: 'quote' | 'reject' | 'requote') {
  const step = transition(request.status, event, 'staff')
  if (!step.ok) {
    throw new AppError('conflict', `Cannot ${event} request ${request.id} in ${request.status}`, {
      reason: step.refusal === 'already' ? 'requestChanged' : 'requestNotAllowed',
    })
  }
}

async function itemsOf(tx: Executor, requestId: string): Promise<QuoteDraftItem[]> {
  return tx
    .select({
      id: requestItems.id,
      position: requestItems.position,
      url: requestItems.url,
      shopHost: requestItems.shopHost,
      quantity: requestItems.quantity,
      title: requestItems.title,
      unitPriceJpy: requestItems.unitPriceJpy,
      domesticShippingJpy: requestItems.domesticShippingJpy,
    })
    .from(requestItems)
    .where(eq(requestItems.requestId, requestId))
    .orderBy(asc(requestItems.position))
}

function pricedItems(items: readonly QuoteDraftItem[]): PricedItem[] {
  return items.flatMap((item) =>
    item.unitPriceJpy === null
      ? []
      : [
          {
            itemId: item.id,
            position: item.position,
            title: item.title ?? '',
            quantity: item.quantity,
            unitPriceJpy: item.unitPriceJpy,
            domesticShippingJpy: item.domesticShippingJpy ?? 0,
          },
        ],
  )
}

const isComplete = (item: QuoteDraftItem) => item.unitPriceJpy !== null && Boolean(item.title?.trim())

/**
 * The request's items as staff priced them so far, and the totals a quote issued now would have
 * (the settings in force). For staff who may see requests.
 */
export async function getQuoteDraft(
  { db, actor, settings }: OrderContext,
  requestId: string,
): Promise<QuoteDraft> {
  staffActor(actor, 'view_requests')
  const [items, current] = await Promise.all([itemsOf(db, requestId), settings.get()])
  const pricing = {
    serviceFeeJpy: current.serviceFeeJpy,
    taxRateBasisPoints: basisPointsOf(current.taxRate),
    daysToPay: current.daysToPay,
  }
  const { lines: _, ...totals } = priceQuote(pricedItems(items), pricing)
  return { items, pricing, totals, complete: items.length > 0 && items.every(isComplete) }
}

/**
 * Staff save a title, a yen price and the domestic shipping for items of a request still being
 * quoted. Blank clears a value. The version moves on; the history records it (staff only).
 * @throws AppError `invalid` (field errors), `forbidden`, `not_found`, `conflict`.
 */
export async function saveQuoteDraft(
  { db, actor }: OrderContext,
  input: SaveQuoteDraftInput,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'save_quote_draft')
  const data = parse(SaveQuoteDraftSchema, input)
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    if (request.status !== 'submitted') {
      throw new AppError('conflict', `Request ${request.id} is ${request.status}: prices are fixed`, {
        reason: 'quoteNotEditable',
      })
    }
    return { version: await writeDraft(tx, request, staff, data.items) }
  })
}

/**
 * Writes staff's titles and prices for a request's items (inside the caller's transaction, the
 * request locked), moves its version on and records the history (staff only). Nothing changed:
 * nothing written, the same version.
 */
async function writeDraft(
  tx: Executor,
  request: LockedRequest,
  staff: OrderActor,
  drafts: readonly {
    id: string
    title?: string | null
    unitPrice?: number | null
    domesticShipping?: number | null
  }[],
): Promise<number> {
  const items = await itemsOf(tx, request.id)
  const known = new Set(items.map((item) => item.id))
  const seen = new Set<string>()
  const unknown = drafts.flatMap((item, index) => {
    const bad = !known.has(item.id) || seen.has(item.id)
    seen.add(item.id)
    return bad ? [fieldNameOf(['items', index, 'id'])] : []
  })
  if (unknown.length > 0) {
    throw new AppError('invalid', 'Quote input refused', {
      reason: 'requestInvalid',
      fieldErrors: Object.fromEntries(unknown.map((name) => [name, ['invalid']])),
    })
  }
  const saved = new Map(items.map((item) => [item.id, item]))
  const changed = drafts.filter((draft) => {
    const item = saved.get(draft.id)
    return (
      item?.title !== (draft.title ?? null) ||
      item?.unitPriceJpy !== (draft.unitPrice ?? null) ||
      item?.domesticShippingJpy !== (draft.domesticShipping ?? null)
    )
  })
  if (changed.length === 0) return request.version
  for (const item of drafts) {
    await tx
      .update(requestItems)
      .set({
        title: item.title ?? null,
        unitPriceJpy: item.unitPrice ?? null,
        domesticShippingJpy: item.domesticShipping ?? null,
        updatedAt: new Date(),
      })
      .where(and(eq(requestItems.id, item.id), eq(requestItems.requestId, request.id)))
  }
  const version = await bumpVersion(tx, request)
  const positions = new Map(items.map((item) => [item.id, item.position]))
  await recordOrderEvent(tx, {
    entityType: REQUEST_ENTITY,
    entityId: request.id,
    event: 'price',
    actor: staff,
    visibleToCustomer: false,
    data: {
      items: drafts.map((item) => ({
        position: positions.get(item.id),
        unitPriceJpy: item.unitPrice ?? null,
        domesticShippingJpy: item.domesticShipping ?? null,
      })),
    },
  })
  return version
}

/**
 * Staff approve the priced request: a new invoice (the quote) with the next number of the year,
 * frozen lines and settings, due in `daysToPay` days; the request becomes `quoted`, its items
 * `quoted`; the customer is told (in the app and by e-mail). If an earlier quote of this request
 * was voided by a revision, the new invoice says it replaces it.
 * @throws AppError `forbidden`, `not_found`, `conflict` (`requestChanged`, `requestNotAllowed`,
 * `quoteIncomplete`: an item without a title or a price).
 */
export async function approveQuote(
  { db, actor, jobs, settings }: OrderContext,
  input: RequestVersionInput | SaveQuoteDraftInput,
): Promise<{ invoiceId: string; invoiceNumber: string; version: number }> {
  const staff = staffActor(actor, 'approve_quote')
  // With the titles and prices as typed on the page (unsaved ones too): saved first, in the same
  // transaction, so what staff see is what the quote says (ADR 038).
  const data =
    'items' in input && input.items !== undefined
      ? parse(SaveQuoteDraftSchema, input)
      : { ...parse(RequestVersionSchema, input), items: undefined }
  const current = await settings.get()
  return db.transaction(async (tx) => {
    const locked = await lockRequest(tx, data.id, data.version)
    requireTransition(locked, 'quote')
    const request = data.items
      ? { ...locked, version: await writeDraft(tx, locked, staff, data.items) }
      : locked
    const items = await itemsOf(tx, request.id)
    const missing = items.filter((item) => !isComplete(item))
    if (items.length === 0 || missing.length > 0) {
      throw new AppError(
        'conflict',
        `Request ${request.id}: items ${missing.map((item) => item.position)} unpriced`,
        {
          reason: 'quoteIncomplete',
        },
      )
    }
    const [customer] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, request.userId))
    if (!customer) throw new Error(`Purchase request ${request.id} has no customer`)
    const issuedAt = new Date()
    const invoice = await issuePurchaseInvoice(tx, {
      request,
      recipient: { name: customer.name, email: customer.email },
      items: pricedItems(items),
      settings: current,
      actor: staff,
      issuedAt,
      replacesInvoiceId: await replacedInvoiceId(tx, request.id),
    })
    const applied = await applyRequestEvent(tx, {
      requestId: request.id,
      event: 'quote',
      actor: staff,
      expectedVersion: request.version,
      data: { invoiceId: invoice.id, invoiceNumber: invoice.number, totalJpy: invoice.totalJpy },
      set: { quotedAt: issuedAt, quoteExpiresAt: invoice.dueAt },
    })
    await moveItems(tx, { requestId: request.id, event: 'quote', actor: staff, at: issuedAt })
    const priced = pricedItems(items)
    await notifyCustomer(tx, jobs, {
      userId: request.userId,
      type: 'quote_ready',
      params: {
        number: request.number,
        invoice: invoice.number,
        totalJpy: invoice.totalJpy,
        dueDate: invoice.dueAt.toISOString(),
        // Its import estimate for the customer's country, when there is one (issue 30).
        ...(await quoteEstimateParams(tx, {
          userId: request.userId,
          goodsJpy: priced.reduce((sum, item) => sum + item.unitPriceJpy * item.quantity, 0),
          categories: priced.length,
          rates: customsRatesOf(current),
          at: issuedAt,
        })),
      },
      requestId: request.id,
    })
    return { invoiceId: invoice.id, invoiceNumber: invoice.number, version: applied.version }
  })
}

/**
 * Staff refuse a request they cannot buy, with a reason the customer reads (timeline, in-app
 * notification and e-mail). The request is closed.
 * @throws AppError `invalid` (no reason, too long), `forbidden`, `not_found`, `conflict`.
 */
export async function rejectRequest(
  { db, actor, jobs }: OrderContext,
  input: RejectRequestInput,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'reject_request')
  const data = parse(RejectRequestSchema, input)
  const reason = data.reason ?? ''
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    requireTransition(request, 'reject')
    const now = new Date()
    const applied = await applyRequestEvent(tx, {
      requestId: request.id,
      event: 'reject',
      actor: staff,
      expectedVersion: data.version,
      note: reason,
      set: { closedAt: now },
    })
    await moveItems(tx, { requestId: request.id, event: 'reject', actor: staff, at: now })
    await notifyCustomer(tx, jobs, {
      userId: request.userId,
      type: 'request_rejected',
      params: { number: request.number, reason },
      requestId: request.id,
    })
    return { version: applied.version }
  })
}

/**
 * Staff take back an issued quote to change it (a price moved, an item added): the open invoice
 * is voided, the request goes back to `submitted` for pricing, and approving again issues a new
 * invoice, with a new number, that replaces the voided one. The customer is told (in the app and
 * by e-mail) that the voided quote can no longer be paid.
 * @throws AppError `forbidden`, `not_found`, `conflict`.
 */
export async function reviseQuote(
  { db, actor, jobs }: OrderContext,
  input: RequestVersionInput,
): Promise<{ version: number; voidedInvoiceNumber: string | null }> {
  const staff = staffActor(actor, 'revise_quote')
  const data = parse(RequestVersionSchema, input)
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    requireTransition(request, 'requote')
    const now = new Date()
    const voided = await voidOpenInvoice(tx, request.id, staff, now)
    const applied = await applyRequestEvent(tx, {
      requestId: request.id,
      event: 'requote',
      actor: staff,
      expectedVersion: data.version,
      data: voided ? { voidedInvoiceId: voided.id, voidedInvoiceNumber: voided.number } : {},
      set: { quotedAt: null, quoteExpiresAt: null },
    })
    await moveItems(tx, { requestId: request.id, event: 'requote', actor: staff, at: now })
    // The customer may have the voided quote open, or its e-mail: tell them it is no longer payable.
    if (voided) {
      await notifyCustomer(tx, jobs, {
        userId: request.userId,
        type: 'quote_revised',
        params: { number: request.number, invoice: voided.number },
        requestId: request.id,
      })
    }
    return { version: applied.version, voidedInvoiceNumber: voided?.number ?? null }
  })
}

/**
 * A note on the request, in any state: internal (staff read it in the history, the customer
 * never) or for the customer (in their timeline, and sent to them as a notification).
 * @throws AppError `invalid`, `forbidden`, `not_found`, `conflict`.
 */
export async function addNote(
  { db, actor, jobs }: OrderContext,
  input: AddNoteInput,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'write_note')
  const data = parse(AddNoteSchema, input)
  const text = data.text ?? ''
  const forCustomer = data.visibility === 'customer'
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    const version = await bumpVersion(tx, request)
    await recordOrderEvent(tx, {
      entityType: REQUEST_ENTITY,
      entityId: request.id,
      event: 'note',
      actor: staff,
      note: text,
      visibleToCustomer: forCustomer,
    })
    if (forCustomer) {
      await notifyCustomer(tx, jobs, {
        userId: request.userId,
        type: 'staff_message',
        params: { number: request.number, message: text },
        requestId: request.id,
      })
    }
    return { version }
  })
}
