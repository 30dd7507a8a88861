import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { purchaseRequests, requestItems } from './orders.ts'
import { shipments } from './shipments.ts'

// Quotes (invoices), their frozen lines, payments, refunds and the payment providers' webhook
// deliveries. docs/decisions/021-quotes-invoices-payments.md. Whole yen everywhere, in bigint
// (a quote of 10 items at the ¥10,000,000 ceiling × 99 does not fit in an int).

/**
 * The last invoice number used in each year. Taken with `UPDATE … RETURNING` inside the issuing
 * transaction, so numbers are sequential per year with no gaps (a rolled-back issue gives its
 * number back) and two staff issuing at once wait for each other on this one row.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    year: smallint().primaryKey(),
    lastNumber: integer().notNull().default(0),
  },
  (table) => [check('invoice_counters_last_check', sql`${table.lastNumber} >= 0`)],
)

/** What the shop issues: the purchase quote (part 1), the shipping invoice (part 2). */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid().primaryKey().defaultRandom(),
    // 2026-000001: year and sequence, printed on the receipt.
    number: text().notNull().unique(),
    year: smallint().notNull(),
    sequence: integer().notNull(),
    kind: text().notNull().default('purchase'),
    // What it charges for: a purchase request (kind `purchase`) or a shipment (`shipping`).
    requestId: uuid().references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    shipmentId: uuid().references(() => shipments.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // open → paid | void (replaced or the request closed) | expired (unpaid after the days to pay).
    status: text().notNull().default('open'),
    locale: text().notNull(),
    // Frozen at issue: who it is for, who issues it (qualified-invoice details), the rates used.
    recipient: jsonb().$type<{ name: string; email: string }>().notNull(),
    issuer: jsonb()
      // The address in both languages since ADR 038 (one text on receipts issued before).
      .$type<{
        name: string
        address: string | { es: string; en: string }
        email: string
        taxRegistrationId: string
      }>()
      .notNull(),
    taxRateBasisPoints: integer().notNull(),
    serviceFeeUnitJpy: integer().notNull(),
    yenRates: jsonb().$type<{ USD: number; MXN: number; CLP: number }>().notNull(),
    itemsJpy: bigint({ mode: 'number' }).notNull(),
    domesticShippingJpy: bigint({ mode: 'number' }).notNull(),
    serviceFeeJpy: bigint({ mode: 'number' }).notNull(),
    // A shipping receipt: the international shipping (an export: no consumption tax) and the
    // storage fees for days past the free period (a service in Japan: taxed).
    shippingJpy: bigint({ mode: 'number' }).notNull().default(0),
    storageFeeJpy: bigint({ mode: 'number' }).notNull().default(0),
    // Of the taxable amount (items + service fee + storage fees), rounded down to the yen.
    taxableJpy: bigint({ mode: 'number' }).notNull(),
    taxJpy: bigint({ mode: 'number' }).notNull(),
    totalJpy: bigint({ mode: 'number' }).notNull(),
    // A receipt re-issued after the one it replaces was paid (docs/decisions/037): the part of its
    // total that money already paid covers (credited back by a credit note and carried over).
    // What is left to pay is total − credit; a receipt it covers whole is paid at issue.
    creditAppliedJpy: bigint({ mode: 'number' }).notNull().default(0),
    // The import estimate shown with it (issue 30, ADR 046), frozen at issue with the rule's
    // version and source, so a rule changed later never rewrites it; null: none was made.
    importEstimate: jsonb().$type<Record<string, unknown>>(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    paidAt: timestamp({ withTimezone: true }),
    voidedAt: timestamp({ withTimezone: true }),
    // The invoice this one replaces (items added or prices changed: a new receipt, the old void).
    replacesInvoiceId: uuid(),
    version: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('invoices_year_sequence_key').on(table.year, table.sequence),
    index('invoices_request_idx').on(table.requestId),
    index('invoices_shipment_idx').on(table.shipmentId),
    index('invoices_user_idx').on(table.userId, table.issuedAt.desc()),
    index('invoices_open_due_idx').on(table.dueAt).where(sql`${table.status} = 'open'`),
    // Analytics (docs/decisions/025): quotes issued in a period, and paid ones' sums, read from
    // the index alone.
    index('invoices_purchase_issued_idx')
      .on(table.issuedAt, table.status)
      .where(sql`${table.kind} = 'purchase'`),
    index('invoices_purchase_paid_idx')
      .on(
        table.paidAt,
        table.totalJpy,
        table.itemsJpy,
        table.serviceFeeJpy,
        table.domesticShippingJpy,
        table.taxJpy,
      )
      .where(sql`${table.kind} = 'purchase' and ${table.status} = 'paid'`),
    // One open purchase quote per request at a time.
    uniqueIndex('invoices_one_open_key').on(table.requestId, table.kind).where(sql`${table.status} = 'open'`),
    // One open shipping receipt per shipment.
    uniqueIndex('invoices_one_open_shipment_key')
      .on(table.shipmentId)
      .where(sql`${table.status} = 'open' and ${table.shipmentId} is not null`),
    check(
      'invoices_owner_check',
      sql`(${table.kind} = 'purchase' and ${table.requestId} is not null and ${table.shipmentId} is null) or (${table.kind} = 'shipping' and ${table.shipmentId} is not null and ${table.requestId} is null)`,
    ),
    check('invoices_kind_check', sql`${table.kind} in ('purchase', 'shipping')`),
    check('invoices_status_check', sql`${table.status} in ('open', 'paid', 'void', 'expired')`),
    check('invoices_locale_check', sql`${table.locale} in ('es', 'en')`),
    check(
      'invoices_amounts_check',
      sql`${table.itemsJpy} >= 0 and ${table.domesticShippingJpy} >= 0 and ${table.serviceFeeJpy} >= 0 and ${table.taxJpy} >= 0 and ${table.shippingJpy} >= 0 and ${table.storageFeeJpy} >= 0 and ${table.totalJpy} > 0`,
    ),
    check(
      'invoices_total_check',
      sql`${table.totalJpy} = ${table.itemsJpy} + ${table.domesticShippingJpy} + ${table.serviceFeeJpy} + ${table.shippingJpy} + ${table.storageFeeJpy} + ${table.taxJpy} and ${table.taxableJpy} = ${table.itemsJpy} + ${table.serviceFeeJpy} + ${table.storageFeeJpy}`,
    ),
    check('invoices_version_check', sql`${table.version} >= 0`),
    check(
      'invoices_credit_applied_check',
      sql`${table.creditAppliedJpy} >= 0 and ${table.creditAppliedJpy} <= ${table.totalJpy}`,
    ),
  ],
)

/** The frozen lines of an invoice: never updated (a change issues a new invoice). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid().primaryKey().defaultRandom(),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    // item (price × quantity), domestic_shipping (per item), service_fee (fee × quantity);
    // on a shipping receipt: shipping (the box), storage_fee (days past the free period × fee).
    kind: text().notNull(),
    itemId: uuid().references(() => requestItems.id, { onDelete: 'set null' }),
    description: text().notNull(),
    quantity: integer().notNull(),
    unitPriceJpy: bigint({ mode: 'number' }).notNull(),
    amountJpy: bigint({ mode: 'number' }).notNull(),
    // In the consumption-tax base (items and the service fee) or not (domestic shipping at cost).
    taxable: boolean().notNull(),
  },
  (table) => [
    unique('invoice_lines_position_key').on(table.invoiceId, table.position),
    check(
      'invoice_lines_kind_check',
      sql`${table.kind} in ('item', 'domestic_shipping', 'service_fee', 'shipping', 'storage_fee')`,
    ),
    check('invoice_lines_amount_check', sql`${table.amountJpy} = ${table.unitPriceJpy} * ${table.quantity}`),
    check('invoice_lines_quantity_check', sql`${table.quantity} >= 1`),
    check('invoice_lines_unit_check', sql`${table.unitPriceJpy} >= 0`),
  ],
)

/**
 * One attempt to pay an invoice: a provider checkout or a bank transfer staff record. The
 * provider's references are unique, so the same capture can never be recorded twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    // PayPal order id / Stripe Checkout session id; for manual payments, null.
    providerRef: text(),
    // PayPal capture id / Stripe payment intent; for manual payments, the bank reference.
    captureRef: text(),
    // pending → succeeded | failed | held (amount or currency differ: staff review) |
    // duplicate (a second success for a paid invoice: to refund); held → succeeded (accepted by an
    // admin) | refunded (returned whole by an admin).
    status: text().notNull().default('pending'),
    // What the invoice asked, and what the provider reports it took (null until known).
    requestedJpy: bigint({ mode: 'number' }).notNull(),
    amount: bigint({ mode: 'number' }),
    currency: text(),
    payUrl: text(),
    recordedBy: text(),
    note: text(),
    version: integer().notNull().default(0),
    // The customer came back from the provider's page (they approved or paid there): until the
    // payment is settled, their pages say "being confirmed" and offer no second checkout.
    returnedAt: timestamp({ withTimezone: true }),
    // An admin's refund through the provider's API is under way (set before the call, cleared
    // when it is recorded or refused): a refund by hand waits for it.
    refundingAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp({ withTimezone: true }),
    // dLocal (docs/decisions/051): the local method chosen (oxxo, spei, pix…) and the customer's
    // country; the charge in local currency (minor units) at the provider's quote, beside the yen.
    method: text(),
    country: text(),
    localCurrency: text(),
    localAmount: bigint({ mode: 'number' }),
    fxRate: text(),
    // An asynchronous method's voucher (OXXO reference, SPEI CLABE, PIX code): shown to the
    // customer until it is paid or expires at the provider's expiry.
    voucherReference: text(),
    voucherBarcode: text(),
    voucherUrl: text(),
    expiresAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('payments_invoice_idx').on(table.invoiceId),
    index('payments_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    // Held for an admin's review: the staff's "payments to confirm" (docs/decisions/036).
    index('payments_held_idx').on(table.createdAt).where(sql`${table.status} = 'held'`),
    unique('payments_provider_ref_key').on(table.provider, table.providerRef),
    unique('payments_capture_ref_key').on(table.provider, table.captureRef),
    check(
      'payments_provider_check',
      sql`${table.provider} in ('manual', 'paypal', 'stripe', 'balance', 'dlocal')`,
    ),
    check(
      'payments_local_check',
      sql`(${table.localCurrency} is null and ${table.localAmount} is null) or (${table.localCurrency} ~ '^[A-Z]{3}$' and ${table.localAmount} > 0)`,
    ),
    check(
      'payments_status_check',
      sql`${table.status} in ('pending', 'succeeded', 'failed', 'held', 'duplicate', 'refunded')`,
    ),
    check('payments_requested_check', sql`${table.requestedJpy} > 0`),
    check('payments_note_check', sql`char_length(${table.note}) <= 2000`),
  ],
)

/** Money going back: rows are added, never changed (docs/decisions/021). */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    paymentId: uuid()
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    amountJpy: bigint({ mode: 'number' }).notNull(),
    // due (flagged: a duplicate payment) or done (staff refunded it at the provider or bank).
    status: text().notNull(),
    reason: text().notNull(),
    recordedBy: text(),
    // A refund made through the provider's API: its refund id (one row per refund, ever).
    providerRef: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('refunds_payment_idx').on(table.paymentId),
    uniqueIndex('refunds_provider_ref_key')
      .on(table.providerRef)
      .where(sql`${table.providerRef} is not null`),
    check('refunds_amount_check', sql`${table.amountJpy} > 0`),
    check('refunds_status_check', sql`${table.status} in ('due', 'done')`),
  ],
)

/** Every webhook delivery we accepted, once per provider event id (replays are no-ops). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    payload: jsonb().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (table) => [unique('webhook_events_event_key').on(table.provider, table.eventId)],
)

/**
 * The customer's word that they paid an open invoice by bank transfer ("I have paid"), with an
 * optional proof: a photo (re-encoded, as every uploaded photo is) or a PDF (checked by its
 * bytes), kept in the file store and served to the owner and staff only. It is **not** a
 * payment: nothing is marked paid. It puts the invoice in the staff's "payments to confirm"
 * until an admin records the transfer with the bank's reference (`confirmed`, with that payment)
 * or says it has not arrived (`dismissed`, with a reason the customer reads). One pending notice
 * per invoice. docs/decisions/036.
 */
export const transferNotices = pgTable(
  'transfer_notices',
  {
    id: uuid().primaryKey().defaultRandom(),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // pending → confirmed (the transfer recorded) | dismissed (not found at the bank).
    status: text().notNull().default('pending'),
    // What the customer adds to find it: the sender's name, the bank, the day.
    note: text(),
    // The proof in the file store (core/uploads/file-store.ts): image/webp (our re-encoding) or
    // application/pdf (their bytes, checked), and its size.
    proofKey: text(),
    proofType: text(),
    proofBytes: integer(),
    paymentId: uuid().references(() => payments.id, { onDelete: 'set null' }),
    // The admin who confirmed or dismissed it (not a foreign key: the history stays).
    resolvedBy: text(),
    dismissReason: text(),
    version: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('transfer_notices_one_pending_key')
      .on(table.invoiceId)
      .where(sql`${table.status} = 'pending'`),
    index('transfer_notices_invoice_idx').on(table.invoiceId),
    // The staff's "payments to confirm", oldest first, and its count.
    index('transfer_notices_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    check('transfer_notices_status_check', sql`${table.status} in ('pending', 'confirmed', 'dismissed')`),
    check('transfer_notices_note_check', sql`char_length(${table.note}) <= 500`),
    check(
      'transfer_notices_proof_check',
      sql`(${table.proofKey} is null and ${table.proofType} is null and ${table.proofBytes} is null) or (${table.proofKey} ~ '^[a-z0-9/-]+\\.(webp|pdf)$' and ${table.proofType} in ('image/webp', 'application/pdf') and ${table.proofBytes} between 1 and 10485760)`,
    ),
    check(
      'transfer_notices_resolved_check',
      sql`(${table.status} = 'pending') = (${table.resolvedAt} is null)`,
    ),
    check(
      'transfer_notices_dismiss_check',
      sql`(${table.status} = 'dismissed') = (${table.dismissReason} is not null) and char_length(${table.dismissReason}) <= 1000`,
    ),
    check('transfer_notices_version_check', sql`${table.version} >= 0`),
  ],
)

/** The last credit-note number used in each year (a series of its own, gapless as invoices'). */
export const creditNoteCounters = pgTable(
  'credit_note_counters',
  {
    year: smallint().primaryKey(),
    lastNumber: integer().notNull().default(0),
  },
  (table) => [check('credit_note_counters_last_check', sql`${table.lastNumber} >= 0`)],
)

/**
 * A credit note (docs/decisions/037): the document that takes back a paid invoice (a shipping
 * receipt re-issued at another price after it was paid). Numbered (CN-2026-000001), its issuer,
 * recipient, rates and lines frozen at issue like an invoice's, with the reason; never updated
 * (a trigger refuses it). Its credit may be carried to the receipt that replaced the invoice
 * (`appliedToInvoiceId`); what is left over is a refund due on the payment(s) behind it.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    number: text().notNull().unique(),
    year: smallint().notNull(),
    sequence: integer().notNull(),
    // The invoice it credits, and the one its credit was carried to (the re-issued receipt).
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    appliedToInvoiceId: uuid().references(() => invoices.id, { onDelete: 'cascade' }),
    // Its owner, as the invoice's: a purchase request or a shipment.
    requestId: uuid().references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    shipmentId: uuid().references(() => shipments.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locale: text().notNull(),
    recipient: jsonb().$type<{ name: string; email: string }>().notNull(),
    // The credited invoice's issuer as frozen there (its address in both languages since ADR 038).
    issuer: jsonb()
      .$type<{
        name: string
        address: string | { es: string; en: string }
        email: string
        taxRegistrationId: string
      }>()
      .notNull(),
    taxRateBasisPoints: integer().notNull(),
    yenRates: jsonb().$type<{ USD: number; MXN: number; CLP: number }>().notNull(),
    // What it gives back: the taxed part, the part outside the tax base, the tax (the credited
    // invoice's own, as frozen there) and the total.
    taxableJpy: bigint({ mode: 'number' }).notNull(),
    nonTaxableJpy: bigint({ mode: 'number' }).notNull(),
    taxJpy: bigint({ mode: 'number' }).notNull(),
    totalJpy: bigint({ mode: 'number' }).notNull(),
    reason: text().notNull(),
    // The staff member who issued it (a user id; kept as text: the document outlives accounts).
    issuedBy: text(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('credit_notes_year_sequence_key').on(table.year, table.sequence),
    index('credit_notes_user_idx').on(table.userId, table.issuedAt.desc()),
    index('credit_notes_invoice_idx').on(table.invoiceId),
    index('credit_notes_shipment_idx').on(table.shipmentId),
    index('credit_notes_request_idx').on(table.requestId),
    check('credit_notes_owner_check', sql`(${table.requestId} is null) <> (${table.shipmentId} is null)`),
    check(
      'credit_notes_amounts_check',
      sql`${table.taxableJpy} >= 0 and ${table.nonTaxableJpy} >= 0 and ${table.taxJpy} >= 0 and ${table.totalJpy} > 0 and ${table.totalJpy} = ${table.taxableJpy} + ${table.nonTaxableJpy} + ${table.taxJpy}`,
    ),
    check('credit_notes_locale_check', sql`${table.locale} in ('es', 'en')`),
    check('credit_notes_reason_check', sql`char_length(${table.reason}) between 1 and 500`),
  ],
)

/** A credit note's frozen lines: what it takes back, line by line as the credited invoice had it. */
export const creditNoteLines = pgTable(
  'credit_note_lines',
  {
    id: uuid().primaryKey().defaultRandom(),
    creditNoteId: uuid()
      .notNull()
      .references(() => creditNotes.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    kind: text().notNull(),
    // The item the line was about (no foreign key: the document is frozen, the item may go).
    itemId: uuid(),
    description: text().notNull(),
    quantity: integer().notNull(),
    unitPriceJpy: bigint({ mode: 'number' }).notNull(),
    amountJpy: bigint({ mode: 'number' }).notNull(),
    taxable: boolean().notNull(),
  },
  (table) => [
    unique('credit_note_lines_position_key').on(table.creditNoteId, table.position),
    check(
      'credit_note_lines_kind_check',
      sql`${table.kind} in ('item', 'domestic_shipping', 'service_fee', 'shipping', 'storage_fee')`,
    ),
    check(
      'credit_note_lines_amount_check',
      sql`${table.amountJpy} = ${table.unitPriceJpy} * ${table.quantity}`,
    ),
    check('credit_note_lines_quantity_check', sql`${table.quantity} >= 1`),
    check('credit_note_lines_unit_check', sql`${table.unitPriceJpy} >= 0`),
  ],
)
