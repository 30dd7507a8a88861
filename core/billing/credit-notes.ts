import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm'
import type { YenRates } from '#core/money/money.ts'
import { actorKindFor } from '#core/shared/actor-kind.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { isStaff, type ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import {
  creditNoteCounters,
  creditNoteLines,
  creditNotes,
  invoiceLines,
  invoices,
  purchaseRequests,
  shipments,
} from '#db/schema/index.ts'
import { japanYear } from './invoice-service.ts'
import { ownerOf, type PaymentOwner } from './payment-owner.ts'

/**
 * Credit notes (docs/decisions/037): the billing document that takes back an invoice already
 * paid (today: a shipping receipt re-issued at another price after it was paid). A series of its
 * own (CN-2026-000001, gapless per year like invoices), frozen at issue with the credited
 * invoice's issuer, recipient, rates and lines, and the reason; a trigger refuses any change.
 * The customer sees theirs on the shipment page and as a printable document; what core exposes
 * here (`listCreditNotes`) is what a customer's money history lists beside payments and refunds.
 */

export const CREDIT_NOTE_ENTITY = 'credit_note'

/** CN-2026-000001. */
export function formatCreditNoteNumber(year: number, sequence: number): string {
  return `CN-${year}-${String(sequence).padStart(6, '0')}`
}

async function takeCreditNoteNumber(tx: Executor, year: number) {
  const [row] = await tx
    .insert(creditNoteCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: creditNoteCounters.year,
      set: { lastNumber: sql`${creditNoteCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: creditNoteCounters.lastNumber })
  if (!row) throw new Error(`Unable to take a credit note number for ${year}`)
  return { sequence: row.lastNumber, number: formatCreditNoteNumber(year, row.lastNumber) }
}

/**
 * Issues the credit note of a whole paid invoice inside the caller's transaction (which holds
 * the owner's and the invoice's locks): its lines and amounts are the invoice's, as frozen there
 * (the tax is the invoice's own, not recomputed), with the reason and the invoice its credit is
 * carried to. Writes its `issue` history row.
 */
export async function issueCreditNote(
  tx: Executor,
  input: {
    invoiceId: string
    appliedToInvoiceId: string | null
    reason: string
    actor: OrderActor
    issuedAt: Date
  },
): Promise<{ id: string; number: string; totalJpy: number }> {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, input.invoiceId))
  if (!invoice) throw new Error(`No invoice ${input.invoiceId} to credit`)
  if (invoice.status !== 'paid') throw new Error(`Invoice ${invoice.number} is ${invoice.status}, not paid`)
  const lines = await tx
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoice.id))
    .orderBy(asc(invoiceLines.position))
  const year = japanYear(input.issuedAt)
  const { sequence, number } = await takeCreditNoteNumber(tx, year)
  const [note] = await tx
    .insert(creditNotes)
    .values({
      number,
      year,
      sequence,
      invoiceId: invoice.id,
      appliedToInvoiceId: input.appliedToInvoiceId,
      requestId: invoice.requestId,
      shipmentId: invoice.shipmentId,
      userId: invoice.userId,
      locale: invoice.locale,
      recipient: invoice.recipient,
      issuer: invoice.issuer,
      taxRateBasisPoints: invoice.taxRateBasisPoints,
      yenRates: invoice.yenRates,
      taxableJpy: invoice.taxableJpy,
      nonTaxableJpy: invoice.totalJpy - invoice.taxableJpy - invoice.taxJpy,
      taxJpy: invoice.taxJpy,
      totalJpy: invoice.totalJpy,
      reason: input.reason,
      issuedBy: input.actor.id,
      issuedAt: input.issuedAt,
    })
    .returning({ id: creditNotes.id })
  if (!note) throw new Error('Unable to store a credit note: no row returned')
  await tx.insert(creditNoteLines).values(
    lines.map((line) => ({
      creditNoteId: note.id,
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
    entityType: CREDIT_NOTE_ENTITY,
    entityId: note.id,
    event: 'issue',
    to: 'issued',
    actor: input.actor,
    note: input.reason,
    data: { number, invoiceId: invoice.id, invoiceNumber: invoice.number, totalJpy: invoice.totalJpy },
  })
  return { id: note.id, number, totalJpy: invoice.totalJpy }
}

export type CreditNoteLineView = {
  position: number
  kind: 'item' | 'domestic_shipping' | 'service_fee' | 'shipping' | 'storage_fee'
  description: string
  quantity: number
  unitPriceJpy: number
  amountJpy: number
  taxable: boolean
}

export type CreditNoteSummary = {
  id: string
  number: string
  /** What it belongs to: the request or the shipment, and its number (R-…, SH-…). */
  owner: PaymentOwner
  ownerNumber: string
  /** The invoice it takes back, and the one its credit was carried to (null: none). */
  invoice: { id: string; number: string }
  appliedTo: { id: string; number: string } | null
  totalJpy: number
  reason: string
  issuedAt: Date
}

export type CreditNoteView = CreditNoteSummary & {
  locale: 'es' | 'en'
  recipient: { name: string; email: string }
  issuer: (typeof creditNotes.$inferSelect)['issuer']
  taxRateBasisPoints: number
  yenRates: YenRates
  taxableJpy: number
  nonTaxableJpy: number
  taxJpy: number
  /** The credited invoice's issue date (the qualified-invoice system asks for it on a return). */
  invoiceIssuedAt: Date
  lines: CreditNoteLineView[]
}

const notFound = (id: unknown) =>
  new AppError('not_found', `Credit note ${String(id).slice(0, 80)} not found`, {
    reason: 'creditNoteNotFound',
  })

const summaryColumns = {
  id: creditNotes.id,
  number: creditNotes.number,
  requestId: creditNotes.requestId,
  shipmentId: creditNotes.shipmentId,
  userId: creditNotes.userId,
  invoiceId: creditNotes.invoiceId,
  appliedToInvoiceId: creditNotes.appliedToInvoiceId,
  totalJpy: creditNotes.totalJpy,
  reason: creditNotes.reason,
  issuedAt: creditNotes.issuedAt,
  requestNumber: purchaseRequests.number,
  shipmentNumber: shipments.number,
}

type SummaryRow = {
  id: string
  number: string
  requestId: string | null
  shipmentId: string | null
  invoiceId: string
  appliedToInvoiceId: string | null
  totalJpy: number
  reason: string
  issuedAt: Date
  requestNumber: string | null
  shipmentNumber: string | null
}

async function summaries(db: Executor, rows: readonly SummaryRow[]): Promise<CreditNoteSummary[]> {
  const ids = [
    ...new Set(
      rows.flatMap((row) =>
        row.appliedToInvoiceId ? [row.invoiceId, row.appliedToInvoiceId] : [row.invoiceId],
      ),
    ),
  ]
  const numbers = ids.length
    ? new Map(
        (
          await db
            .select({ id: invoices.id, number: invoices.number })
            .from(invoices)
            .where(inArray(invoices.id, ids))
        ).map((row) => [row.id, row.number]),
      )
    : new Map<string, string>()
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    owner: ownerOf(row),
    ownerNumber: row.requestNumber ?? row.shipmentNumber ?? '',
    invoice: { id: row.invoiceId, number: numbers.get(row.invoiceId) ?? '' },
    appliedTo: row.appliedToInvoiceId
      ? { id: row.appliedToInvoiceId, number: numbers.get(row.appliedToInvoiceId) ?? '' }
      : null,
    totalJpy: row.totalJpy,
    reason: row.reason,
    issuedAt: row.issuedAt,
  }))
}

/**
 * One credit note with its lines, for its customer or staff; anyone else (and ids that are not
 * ids) gets `not_found`, as for one that does not exist.
 * @throws AppError `unauthorized`, `not_found`.
 */
export async function getCreditNote({ db, actor }: ServiceContext, id: string): Promise<CreditNoteView> {
  if (!actor) throw new AppError('unauthorized', 'Credit notes need a signed-in user')
  if (!isUuid(id)) throw notFound(id)
  const [row] = await db
    .select({
      ...summaryColumns,
      locale: creditNotes.locale,
      recipient: creditNotes.recipient,
      issuer: creditNotes.issuer,
      taxRateBasisPoints: creditNotes.taxRateBasisPoints,
      yenRates: creditNotes.yenRates,
      taxableJpy: creditNotes.taxableJpy,
      nonTaxableJpy: creditNotes.nonTaxableJpy,
      taxJpy: creditNotes.taxJpy,
      invoiceIssuedAt: invoices.issuedAt,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, creditNotes.requestId))
    .leftJoin(shipments, eq(shipments.id, creditNotes.shipmentId))
    .where(eq(creditNotes.id, id))
  if (!row || !actorKindFor(actor, row)) throw notFound(id)
  const [[summary], lines] = await Promise.all([
    summaries(db, [row]),
    db
      .select({
        position: creditNoteLines.position,
        kind: creditNoteLines.kind,
        description: creditNoteLines.description,
        quantity: creditNoteLines.quantity,
        unitPriceJpy: creditNoteLines.unitPriceJpy,
        amountJpy: creditNoteLines.amountJpy,
        taxable: creditNoteLines.taxable,
      })
      .from(creditNoteLines)
      .where(eq(creditNoteLines.creditNoteId, id))
      .orderBy(asc(creditNoteLines.position)),
  ])
  if (!summary) throw notFound(id)
  return {
    ...summary,
    locale: row.locale === 'en' ? 'en' : 'es',
    recipient: row.recipient,
    issuer: row.issuer,
    taxRateBasisPoints: row.taxRateBasisPoints,
    yenRates: row.yenRates,
    taxableJpy: row.taxableJpy,
    nonTaxableJpy: row.nonTaxableJpy,
    taxJpy: row.taxJpy,
    invoiceIssuedAt: row.invoiceIssuedAt,
    lines: lines.map((line) => ({ ...line, kind: line.kind as CreditNoteLineView['kind'] })),
  }
}

export const CREDIT_NOTES_PAGE_SIZE = 50

/**
 * A customer's credit notes, newest first, 50 a page (keyset on issue time and id: pass the last
 * row's `{ issuedAt, id }` as `before` for the next page): the signed-in customer's own, or, for
 * staff, the customer `userId` names. For a customer's money history beside payments and refunds.
 * @throws AppError `unauthorized`; `forbidden` (a customer asking for someone else's).
 */
export async function listCreditNotes(
  { db, actor }: ServiceContext,
  { userId, before }: { userId?: string | null; before?: { issuedAt: Date; id: string } | null } = {},
): Promise<CreditNoteSummary[]> {
  if (!actor) throw new AppError('unauthorized', 'Credit notes need a signed-in user')
  const owner = userId ?? actor.id
  if (owner !== actor.id && !isStaff(actor)) {
    throw new AppError('forbidden', 'Only staff read another customer’s credit notes', {
      reason: 'staffActionForbidden',
    })
  }
  const after =
    before && isUuid(before.id)
      ? or(
          lt(creditNotes.issuedAt, before.issuedAt),
          and(eq(creditNotes.issuedAt, before.issuedAt), lt(creditNotes.id, before.id)),
        )
      : undefined
  const rows = await db
    .select(summaryColumns)
    .from(creditNotes)
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, creditNotes.requestId))
    .leftJoin(shipments, eq(shipments.id, creditNotes.shipmentId))
    .where(and(eq(creditNotes.userId, owner), after))
    .orderBy(desc(creditNotes.issuedAt), desc(creditNotes.id))
    .limit(CREDIT_NOTES_PAGE_SIZE)
  return summaries(db, rows)
}

/** A shipment's credit notes, oldest first (the shipment page; the caller checked who asks). */
export async function creditNotesOfShipment(db: Executor, shipmentId: string): Promise<CreditNoteSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(creditNotes)
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, creditNotes.requestId))
    .leftJoin(shipments, eq(shipments.id, creditNotes.shipmentId))
    .where(eq(creditNotes.shipmentId, shipmentId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number))
  return summaries(db, rows)
}
