import { and, asc, desc, eq, or, sql } from 'drizzle-orm'
import { returnBalancePart } from '#core/balance-ledger/ledger.ts'
import type { YenRates } from '#core/money/money.ts'
import { MAX_TOTAL_JPY } from '#core/pricing/pricing.ts'
import {
  basisPointsOf,
  type PricedItem,
  priceQuote,
  type QuoteLineKind,
} from '#core/pricing/quote-pricing.ts'
import type { Bilingual } from '#core/settings/bilingual.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { actorKindFor } from '#core/shared/actor-kind.ts'
import { type Aggregate, applyEventUnlessDone } from '#core/shared/apply-event.ts'
import { BUSINESS_TIME_ZONE } from '#core/shared/business-time.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import {
  creditNotes,
  invoiceCounters,
  invoiceLines,
  invoices,
  purchaseRequests,
  shipments,
} from '#db/schema/index.ts'
import { INVOICE_MACHINE, type InvoiceEvent, type InvoiceStatus, isInvoiceStatus } from './invoice-machine.ts'
import { ownerOf, type PaymentOwner } from './payment-owner.ts'

/** Thrown (`unauthorized`) to anyone not signed in. */
const SIGNED_IN = 'Invoices need a signed-in user'

/**
 * Invoices (the purchase quote a customer pays, and its electronic receipt): issuing one with a
 * gapless number, voiding and expiring it, reading it for its owner or staff
 * (docs/decisions/021-quotes-invoices-payments.md). Amounts and lines are frozen at issue (a
 * trigger refuses any change); only the status moves, by the machine in
 * core/billing/invoice-machine.ts, with compare-and-set on `version` and a history row.
 */

export const INVOICE_ENTITY = 'invoice'

export type InvoiceLineView = {
  position: number
  kind: QuoteLineKind | 'shipping' | 'storage_fee'
  description: string
  quantity: number
  unitPriceJpy: number
  amountJpy: number
  taxable: boolean
}

export type InvoiceView = {
  id: string
  number: string
  kind: 'purchase' | 'shipping'
  status: InvoiceStatus
  /** What it charges for: the purchase request, or the shipment (a shipping receipt). */
  owner: PaymentOwner
  /** The request's or shipment's number (R-…, SH-…). */
  ownerNumber: string
  locale: 'es' | 'en'
  recipient: { name: string; email: string }
  /** As frozen at issue: the address in both languages, or one text on receipts issued before ADR 038. */
  issuer: { name: string; address: string | Bilingual; email: string; taxRegistrationId: string }
  taxRateBasisPoints: number
  serviceFeeUnitJpy: number
  yenRates: YenRates
  itemsJpy: number
  domesticShippingJpy: number
  serviceFeeJpy: number
  shippingJpy: number
  storageFeeJpy: number
  taxableJpy: number
  taxJpy: number
  totalJpy: number
  /**
   * A receipt re-issued after the one it replaces was paid (docs/decisions/037): the money carried
   * over from it (0 otherwise), and the credit note it came from; what is left to pay is
   * total − credit.
   */
  creditAppliedJpy: number
  creditFrom: { id: string; number: string } | null
  /** The credit note that took this invoice back (it was paid, then re-issued), if any. */
  creditedBy: { id: string; number: string; issuedAt: Date } | null
  issuedAt: Date
  dueAt: Date
  paidAt: Date | null
  voidedAt: Date | null
  /** The number of the invoice this one replaced, and of the one that replaced it. */
  replacesNumber: string | null
  replacedByNumber: string | null
  version: number
  lines: InvoiceLineView[]
}

export type InvoiceSummary = Pick<
  InvoiceView,
  'id' | 'number' | 'status' | 'totalJpy' | 'issuedAt' | 'dueAt' | 'paidAt' | 'voidedAt'
>

/** The calendar year in Japan (an invoice issued at 23:30 UTC on 31 December is next year's). */
export function japanYear(date: Date): number {
  return Number(new Intl.DateTimeFormat('en', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric' }).format(date))
}

/** 2026-000123. */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(6, '0')}`
}

/**
 * The next number of `year`, inside the issuing transaction: the counter row stays locked until
 * it commits, so concurrent issues wait for each other and a rolled-back issue gives its number
 * back. Sequential with no gaps.
 */
export async function takeInvoiceNumber(
  tx: Executor,
  year: number,
): Promise<{ sequence: number; number: string }> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.year,
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceCounters.lastNumber })
  if (!row) throw new Error(`Unable to take an invoice number for ${year}`)
  return { sequence: row.lastNumber, number: formatInvoiceNumber(year, row.lastNumber) }
}

/**
 * Issues a purchase invoice for a request inside the caller's transaction (which holds the
 * request's row lock): number, frozen settings (issuer, fee, tax rate, yen rates), recipient,
 * lines and totals from `priceQuote`, and its `issue` history row.
 */
export async function issuePurchaseInvoice(
  tx: Executor,
  input: {
    request: { id: string; userId: string; locale: 'es' | 'en' }
    recipient: { name: string; email: string }
    items: readonly PricedItem[]
    settings: Pick<Settings, 'serviceFeeJpy' | 'taxRate' | 'yenRates' | 'company' | 'daysToPay'>
    actor: OrderActor
    issuedAt: Date
    replacesInvoiceId: string | null
  },
) {
  const { settings, issuedAt } = input
  const pricing = {
    serviceFeeJpy: settings.serviceFeeJpy,
    taxRateBasisPoints: basisPointsOf(settings.taxRate),
  }
  const priced = priceQuote(input.items, pricing)
  if (priced.totalJpy > MAX_TOTAL_JPY) {
    throw new AppError('conflict', `Quote total ¥${priced.totalJpy} is above ¥${MAX_TOTAL_JPY}`, {
      reason: 'quoteTooLarge',
    })
  }
  const year = japanYear(issuedAt)
  const { sequence, number } = await takeInvoiceNumber(tx, year)
  const dueAt = new Date(issuedAt.getTime() + settings.daysToPay * 86_400_000)
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number,
      year,
      sequence,
      kind: 'purchase',
      requestId: input.request.id,
      userId: input.request.userId,
      status: 'open',
      locale: input.request.locale,
      recipient: input.recipient,
      issuer: { ...settings.company },
      taxRateBasisPoints: pricing.taxRateBasisPoints,
      serviceFeeUnitJpy: pricing.serviceFeeJpy,
      yenRates: { ...settings.yenRates },
      itemsJpy: priced.itemsJpy,
      domesticShippingJpy: priced.domesticShippingJpy,
      serviceFeeJpy: priced.serviceFeeJpy,
      taxableJpy: priced.taxableJpy,
      taxJpy: priced.taxJpy,
      totalJpy: priced.totalJpy,
      issuedAt,
      dueAt,
      replacesInvoiceId: input.replacesInvoiceId,
    })
    .returning({ id: invoices.id, version: invoices.version })
  if (!invoice) throw new Error('Unable to store an invoice: no row returned')
  await tx.insert(invoiceLines).values(
    priced.lines.map((line) => ({
      invoiceId: invoice.id,
      position: line.position,
      kind: line.kind,
      itemId: line.itemId,
      description: line.description,
      quantity: line.quantity,
      unitPriceJpy: line.unitPriceJpy,
      amountJpy: line.amountJpy,
      taxable: line.taxable,
    })),
  )
  await recordOrderEvent(tx, {
    entityType: INVOICE_ENTITY,
    entityId: invoice.id,
    event: 'issue',
    from: null,
    to: 'open',
    actor: input.actor,
    data: { number, totalJpy: priced.totalJpy, requestId: input.request.id },
  })
  return { id: invoice.id, number, totalJpy: priced.totalJpy, issuedAt, dueAt }
}

/**
 * Moves one invoice by the invoice machine, in the caller's transaction: locks its row, asks the
 * machine, updates with compare-and-set and appends the history row. Returns null when the
 * machine says it is already there (an expiry that ran twice).
 * @throws AppError `conflict` (not from this state), `forbidden` (not this actor).
 */
export async function applyInvoiceEvent(
  tx: Executor,
  input: {
    invoiceId: string
    event: InvoiceEvent
    actor: OrderActor
    at: Date
    note?: string | null
    /** The version the caller read with the row locked (paying it). */
    expectedVersion?: number
    data?: Record<string, unknown>
  },
): Promise<{ from: InvoiceStatus; to: InvoiceStatus } | null> {
  const applied = await applyEventUnlessDone(tx, INVOICE, {
    id: input.invoiceId,
    event: input.event,
    actor: input.actor,
    at: input.at,
    note: input.note,
    expectedVersion: input.expectedVersion,
    data: input.data,
    set: input.event === 'void' ? { voidedAt: input.at } : input.event === 'pay' ? { paidAt: input.at } : {},
  })
  // Part of it paid from the customer's balance, the rest never paid: that part goes back to the
  // balance in the same transaction (docs/decisions/050).
  if (applied && (input.event === 'void' || input.event === 'expire')) {
    const [owner] = await tx
      .select({ userId: invoices.userId })
      .from(invoices)
      .where(eq(invoices.id, input.invoiceId))
    if (owner) {
      await returnBalancePart(tx, { id: input.invoiceId, userId: owner.userId }, input.actor.id, input.event)
    }
  }
  return applied && { from: applied.from, to: applied.to }
}

const INVOICE: Aggregate<InvoiceEvent, InvoiceStatus, Record<never, never>> = {
  entity: INVOICE_ENTITY,
  table: invoices,
  machine: INVOICE_MACHINE,
  isState: isInvoiceStatus,
  columns: {},
  notFound: (id) => new AppError('not_found', `Invoice ${id} not found`, { reason: 'invoiceNotFound' }),
  changed: (id) => new AppError('conflict', `Invoice ${id} changed meanwhile`, { reason: 'requestChanged' }),
  notAllowed: (id, row, event) =>
    new AppError('conflict', `Cannot ${event} invoice ${id} in ${row.status}`, { reason: 'requestChanged' }),
}

/** Voids the request's open purchase invoice, if it has one (a revised quote, a cancelled request). */
export async function voidOpenInvoice(
  tx: Executor,
  requestId: string,
  actor: OrderActor,
  at: Date,
): Promise<{ id: string; number: string } | null> {
  const [open] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.requestId, requestId), eq(invoices.kind, 'purchase'), eq(invoices.status, 'open')))
  if (!open) return null
  await applyInvoiceEvent(tx, { invoiceId: open.id, event: 'void', actor, at })
  return open
}

/** The request's latest purchase invoice, when it was voided: what a new quote replaces. */
export async function replacedInvoiceId(tx: Executor, requestId: string): Promise<string | null> {
  const [latest] = await tx
    .select({ id: invoices.id, status: invoices.status })
    .from(invoices)
    .where(and(eq(invoices.requestId, requestId), eq(invoices.kind, 'purchase')))
    .orderBy(desc(invoices.issuedAt), desc(invoices.year), desc(invoices.sequence))
    .limit(1)
  return latest?.status === 'void' ? latest.id : null
}

function invoiceNotFound(id: string) {
  return new AppError('not_found', `Invoice ${id} not found`, { reason: 'invoiceNotFound' })
}

function statusOf(value: string): InvoiceStatus {
  if (!isInvoiceStatus(value)) throw new Error(`Unknown invoice status ${value}`)
  return value
}

/**
 * One invoice with its lines, for its customer or staff. Anyone else gets `not_found`, as for an
 * id that does not exist.
 */
export async function getInvoice({ db, actor }: ServiceContext, id: string): Promise<InvoiceView> {
  requireActor(actor, SIGNED_IN)
  if (!isUuid(id)) throw invoiceNotFound(id)
  const [row] = await db
    .select({ invoice: invoices, requestNumber: purchaseRequests.number, shipmentNumber: shipments.number })
    .from(invoices)
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
    .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
    .where(eq(invoices.id, id))
  if (!row || !actorKindFor(actor, row.invoice)) throw invoiceNotFound(id)
  const { invoice } = row
  const [lines, replaces, replacedBy, credits] = await Promise.all([
    db
      .select({
        position: invoiceLines.position,
        kind: invoiceLines.kind,
        description: invoiceLines.description,
        quantity: invoiceLines.quantity,
        unitPriceJpy: invoiceLines.unitPriceJpy,
        amountJpy: invoiceLines.amountJpy,
        taxable: invoiceLines.taxable,
      })
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, id))
      .orderBy(asc(invoiceLines.position)),
    invoice.replacesInvoiceId
      ? db
          .select({ number: invoices.number })
          .from(invoices)
          .where(eq(invoices.id, invoice.replacesInvoiceId))
      : Promise.resolve([]),
    db.select({ number: invoices.number }).from(invoices).where(eq(invoices.replacesInvoiceId, id)),
    db
      .select({
        id: creditNotes.id,
        number: creditNotes.number,
        invoiceId: creditNotes.invoiceId,
        appliedToInvoiceId: creditNotes.appliedToInvoiceId,
        issuedAt: creditNotes.issuedAt,
      })
      .from(creditNotes)
      .where(or(eq(creditNotes.invoiceId, id), eq(creditNotes.appliedToInvoiceId, id))),
  ])
  const creditedBy = credits.find((note) => note.invoiceId === id)
  const creditFrom = credits.find((note) => note.appliedToInvoiceId === id)
  return {
    id: invoice.id,
    number: invoice.number,
    kind: invoice.kind === 'shipping' ? 'shipping' : 'purchase',
    status: statusOf(invoice.status),
    owner: ownerOf(invoice),
    ownerNumber: row.requestNumber ?? row.shipmentNumber ?? '',
    locale: invoice.locale === 'en' ? 'en' : 'es',
    recipient: invoice.recipient,
    issuer: invoice.issuer,
    taxRateBasisPoints: invoice.taxRateBasisPoints,
    serviceFeeUnitJpy: invoice.serviceFeeUnitJpy,
    yenRates: invoice.yenRates,
    itemsJpy: invoice.itemsJpy,
    domesticShippingJpy: invoice.domesticShippingJpy,
    serviceFeeJpy: invoice.serviceFeeJpy,
    shippingJpy: invoice.shippingJpy,
    storageFeeJpy: invoice.storageFeeJpy,
    taxableJpy: invoice.taxableJpy,
    taxJpy: invoice.taxJpy,
    totalJpy: invoice.totalJpy,
    creditAppliedJpy: invoice.creditAppliedJpy,
    creditFrom: creditFrom ? { id: creditFrom.id, number: creditFrom.number } : null,
    creditedBy: creditedBy
      ? { id: creditedBy.id, number: creditedBy.number, issuedAt: creditedBy.issuedAt }
      : null,
    issuedAt: invoice.issuedAt,
    dueAt: invoice.dueAt,
    paidAt: invoice.paidAt,
    voidedAt: invoice.voidedAt,
    replacesNumber: replaces[0]?.number ?? null,
    replacedByNumber: replacedBy[0]?.number ?? null,
    version: invoice.version,
    lines: lines.map((line) => ({ ...line, kind: line.kind as InvoiceLineView['kind'] })),
  }
}

/** A request's invoices, newest first, for its customer or staff (anyone else: `not_found`). */
export async function listRequestInvoices(
  { db, actor }: ServiceContext,
  requestId: string,
): Promise<InvoiceSummary[]> {
  requireActor(actor, SIGNED_IN)
  const notFound = () =>
    new AppError('not_found', `Purchase request ${requestId} not found`, { reason: 'requestNotFound' })
  if (!isUuid(requestId)) throw notFound()
  const [request] = await db
    .select({ userId: purchaseRequests.userId })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, requestId))
  if (!request || !actorKindFor(actor, request)) throw notFound()
  const rows = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      totalJpy: invoices.totalJpy,
      issuedAt: invoices.issuedAt,
      dueAt: invoices.dueAt,
      paidAt: invoices.paidAt,
      voidedAt: invoices.voidedAt,
    })
    .from(invoices)
    .where(eq(invoices.requestId, requestId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.year), desc(invoices.sequence))
  return rows.map((row) => ({ ...row, status: statusOf(row.status) }))
}
