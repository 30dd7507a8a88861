import { and, desc, eq, gt, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm'
import { ownerOf, ownerPaths, type PaymentOwner } from '#core/billing/payment-owner.ts'
import { hasPendingTransfer } from '#core/billing/pending-transfers.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { type Actor, requireActor } from '#core/shared/service-context.ts'
import type { Database, Executor } from '#db/client.ts'
import { invoices, payments, users, webhookEvents } from '#db/schema/index.ts'
import {
  formatLocal,
  LOCAL_METHOD_LABELS,
  type LocalCountry,
  type LocalMethodId,
  localMethod,
} from './local-methods.ts'
import { applyPaymentEventIfAllowed, PAYMENT_ENTITY } from './payment-events.ts'
import { isPaymentStatus, type PaymentStatus } from './payment-machine.ts'
import { StartCheckoutSchema } from './payment-schemas.ts'
import type { LocalAmount, PaymentOutcome, PaymentProvider, ProviderName, Voucher } from './provider.ts'
import {
  assertPayable,
  type InvoiceRow,
  invoiceNotFound,
  invoiceWithOwner,
  moveOf,
  PAYMENTS_NEED_SIGN_IN,
  type PaymentSystemDeps,
  PROVIDER_ACTOR,
  providerOf,
  type SettleResult,
  settlePayment,
  settleWithin,
} from './settle-payment.ts'

/**
 * Paying a quote (an open invoice): with a provider's hosted checkout (PayPal, Stripe) or by
 * bank transfer that an admin records. docs/decisions/021, "Payments".
 *
 * Money is never lost or doubled:
 * - A provider is never called inside a transaction. A checkout writes its pending payment
 *   first (committed), then asks the provider with the payment's id as idempotency key, then
 *   stores the provider's reference. A provider that is down leaves a pending row without a
 *   reference, which nobody can pay (the customer never got a pay link); the next click reuses
 *   it with the same key, and the reconciliation job closes it after the window.
 * - Every report of a provider (the customer's return, a webhook, the reconciliation job) goes
 *   through `settle`, one transaction that locks the payment row: a replay, or a webhook racing
 *   the return, finds the payment already settled and changes nothing. The provider reference
 *   and the capture reference are unique per provider.
 * - Money taken is compared with the invoice: another amount or currency is held for staff,
 *   never paid; a second success for a paid invoice is flagged `duplicate` with a refund due.
 * - Payments and refunds are rows that are added; a payment's recorded facts never change
 *   (a trigger refuses it). No card data reaches us: the customer pays on the provider's page.
 */

/** A pending checkout this young is reused (its pay link) instead of opening another. */
export const CHECKOUT_REUSE_MINUTES = 60
/**
 * After the customer came back from the provider's page, how long their pages say "being
 * confirmed" (no pay buttons, no second checkout) while the payment is still pending: long enough
 * for the confirmation job and two runs of the reconciliation, short enough that a customer who
 * did not pay after all is not kept from paying.
 */
export const BEING_CONFIRMED_MINUTES = 30
/** When the job that asks the provider again runs after a return (and then with back-off). */
export const CONFIRM_AFTER_RETURN_SECONDS = 60
/** The reconciliation job asks about payments pending longer than this… */
export const RECONCILE_AFTER_MINUTES = 15
/** …until this old; then they are closed as abandoned (no provider keeps a checkout this long). */
export const ABANDON_AFTER_HOURS = 72
const RECONCILE_BATCH = 100
/** A voucher past its expiry is still asked about for this long (a payment made at the last minute). */
export const VOUCHER_GRACE_HOURS = 24

/** A voucher issued and not yet past its expiry: the customer may be paying it now. */
export function isOpenVoucher(
  payment: { status: string; voucherReference: string | null; expiresAt: Date | null },
  now: number = Date.now(),
): boolean {
  return (
    payment.status === 'pending' &&
    payment.voucherReference !== null &&
    (payment.expiresAt === null || payment.expiresAt.getTime() > now)
  )
}

// ---------------------------------------------------------------------------------------------
// Checkout: the customer pays with a provider
// ---------------------------------------------------------------------------------------------

export type StartedCheckout = {
  paymentId: string
  payUrl: string
  provider: ProviderName
  reused: boolean
  /** dLocal's asynchronous methods: a voucher (or code) the customer's page now shows. */
  voucher?: boolean
}

/**
 * The customer starts paying their open invoice with a configured provider, and gets the
 * provider's page to go to. A pending checkout of the last hour for the same invoice and
 * provider is reused (two tabs, a second click, a return after cancelling). The provider is
 * called outside any transaction (see the file's comment).
 * @throws AppError `unauthorized`; `not_found` (someone else's invoice, as a missing one);
 *   `forbidden` (staff: they do not pay for customers); `invalid` (`paymentProviderUnknown`);
 *   `conflict` (`invoicePaid`, `invoiceNotPayable`, `paymentUnderReview`); `upstream_failed`
 *   (`paymentProviderDown`, `paymentRefused`: nothing the customer can use was written).
 */
export async function startCheckout(
  ctx: OrderContext,
  input: { invoiceId: string; provider: string; country?: string | null; method?: string | null },
  meta: { locale?: 'es' | 'en' } = {},
): Promise<StartedCheckout> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  const parsed = StartCheckoutSchema.safeParse({
    invoiceId: input.invoiceId,
    provider: input.provider,
    country: input.country || undefined,
    method: input.method || undefined,
  })
  if (!parsed.success) {
    if (!isUuid(String(input.invoiceId))) throw invoiceNotFound(String(input.invoiceId))
    if (input.provider === 'dlocal') throw methodNotOffered(input.country, input.method)
    throw new AppError('invalid', `Unknown payment provider ${input.provider}`, {
      reason: 'paymentProviderUnknown',
    })
  }
  const provider = providerOf(ctx, parsed.data.provider)
  if (!provider) {
    throw new AppError('invalid', `Payment provider ${parsed.data.provider} is not configured`, {
      reason: 'paymentProviderUnknown',
    })
  }
  const { invoiceId } = parsed.data
  // dLocal: a method offered in the customer's country (docs/decisions/051); others take none.
  const local = provider.name === 'dlocal' ? localMethod(parsed.data.country, parsed.data.method) : null
  if (provider.name === 'dlocal' && (!local || !parsed.data.country)) {
    throw methodNotOffered(parsed.data.country, parsed.data.method)
  }
  const choice = local && parsed.data.country ? { country: parsed.data.country, method: local.id } : null

  const prepared = await ctx.db.transaction((tx) => prepareCheckout(tx, actor, invoiceId, provider, choice))
  const { invoice, paymentId } = prepared
  if (prepared.payUrl) {
    return {
      paymentId,
      payUrl: prepared.payUrl,
      provider: provider.name,
      reused: true,
      voucher: prepared.voucher,
    }
  }

  const payer = choice ? await payerOf(ctx, actor.id) : null
  const checkout = await askForCheckout(
    ctx,
    provider,
    invoice,
    paymentId,
    meta,
    choice && payer ? { ...choice, payer } : null,
  )

  // Store what the provider answered, unless a parallel click already did (the same key gives
  // the same checkout back, so both answers are the same). A voucher is told to the customer in
  // the same transaction (issued, pay by…).
  const voucher = checkout.voucher ?? null
  const stored = await ctx.db.transaction(async (tx) => {
    const version = await setIfVersion(tx, payments, {
      id: paymentId,
      set: {
        providerRef: checkout.providerRef,
        payUrl: checkout.payUrl,
        ...(checkout.local
          ? {
              localCurrency: checkout.local.currency,
              localAmount: checkout.local.amountMinor,
              fxRate: checkout.local.rate,
            }
          : {}),
        ...(voucher
          ? {
              voucherReference: voucher.reference,
              voucherBarcode: voucher.barcode,
              voucherUrl: voucher.url,
              expiresAt: voucher.expiresAt,
            }
          : {}),
      },
      where: and(eq(payments.status, 'pending'), isNull(payments.providerRef)),
    })
    if (version !== null && voucher && choice) {
      await tellVoucherIssued(tx, ctx, invoice, paymentId, choice.method, voucher, checkout.local ?? null)
    }
    return version
  })
  if (stored !== null && checkout.payUrl) {
    return {
      paymentId,
      payUrl: checkout.payUrl,
      provider: provider.name,
      reused: false,
      voucher: voucher !== null,
    }
  }
  const [current] = await ctx.db
    .select({ status: payments.status, payUrl: payments.payUrl, voucherReference: payments.voucherReference })
    .from(payments)
    .where(eq(payments.id, paymentId))
  if (current?.status === 'pending' && current.payUrl) {
    return {
      paymentId,
      payUrl: current.payUrl,
      provider: provider.name,
      reused: true,
      voucher: current.voucherReference !== null,
    }
  }
  throw new AppError('conflict', `Payment ${paymentId} moved while its checkout was created`, {
    reason: 'invoiceChanged',
  })
}

function methodNotOffered(country: unknown, method: unknown) {
  return new AppError(
    'invalid',
    `Payment method ${String(method).slice(0, 20)} is not offered in ${String(country).slice(0, 10)}`,
    { reason: 'paymentMethodNotOffered' },
  )
}

/** Who pays, as dLocal asks: the account's name and e-mail. */
async function payerOf(ctx: OrderContext, userId: string) {
  const [user] = await ctx.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
  return { name: user?.name || user?.email || 'Customer', email: user?.email ?? '' }
}

/** The voucher is issued: the customer is told what to pay, where, and by when. */
async function tellVoucherIssued(
  tx: Executor,
  ctx: OrderContext,
  invoice: InvoiceRow,
  paymentId: string,
  method: LocalMethodId,
  voucher: Voucher,
  local: LocalAmount | null,
) {
  await notifyCustomer(tx, ctx.jobs, {
    userId: invoice.userId,
    type: 'payment_voucher',
    params: {
      number: invoice.ownerNumber,
      method: LOCAL_METHOD_LABELS[method],
      reference: voucher.reference,
      localAmount: local
        ? formatLocal(local.amountMinor, local.currency, invoice.locale === 'en' ? 'en' : 'es')
        : '',
      amountJpy: invoice.dueJpy,
      // Without an expiry from the provider, the text without a date (`body_noDate`).
      ...(voucher.expiresAt ? { payByDate: voucher.expiresAt.toISOString() } : { variant: 'noDate' }),
    },
    link: ownerPaths(invoice.owner).customer,
    ...(invoice.owner.kind === 'request' ? { requestId: invoice.owner.id } : {}),
  })
  await recordOrderEvent(tx, {
    entityType: PAYMENT_ENTITY,
    entityId: paymentId,
    event: 'voucher_issued',
    from: 'pending',
    to: 'pending',
    actor: PROVIDER_ACTOR,
    data: { method, reference: voucher.reference, expiresAt: voucher.expiresAt?.toISOString() ?? null },
    visibleToCustomer: false,
  })
}

/**
 * In the checkout's transaction: locks the invoice with its owner, refuses what may not be paid,
 * and reuses a recent pending checkout or writes a new pending payment with its history.
 */
async function prepareCheckout(
  tx: Executor,
  actor: Actor,
  invoiceId: string,
  provider: PaymentProvider,
  choice: { country: LocalCountry; method: LocalMethodId } | null,
) {
  const invoice = await invoiceWithOwner(tx, invoiceId, true)
  if (!invoice || (invoice.userId !== actor.id && actor.role === 'user')) throw invoiceNotFound(invoiceId)
  if (invoice.userId !== actor.id) {
    throw new AppError('forbidden', `Only the customer pays invoice ${invoice.number}`)
  }
  assertPayable(invoice)
  const attempts = await tx
    .select({
      id: payments.id,
      provider: payments.provider,
      status: payments.status,
      payUrl: payments.payUrl,
      createdAt: payments.createdAt,
      returnedAt: payments.returnedAt,
      requestedJpy: payments.requestedJpy,
      method: payments.method,
      country: payments.country,
      voucherReference: payments.voucherReference,
      expiresAt: payments.expiresAt,
    })
    .from(payments)
    .where(eq(payments.invoiceId, invoice.id))
    .orderBy(desc(payments.createdAt))
  if (attempts.some((attempt) => attempt.status === 'held')) {
    throw new AppError('conflict', `Invoice ${invoice.number} has a payment under review`, {
      reason: 'paymentUnderReview',
    })
  }
  // The customer said they paid it by bank transfer: no second payment while staff check it.
  if (await hasPendingTransfer(tx, invoice.id)) {
    throw new AppError('conflict', `Invoice ${invoice.number} has a bank transfer being checked`, {
      reason: 'transferBeingChecked',
    })
  }
  // The customer came back from a provider's page a moment ago: that money may have been taken
  // and not yet recorded (a crash between the two). No second checkout until it is settled.
  if (attempts.some((attempt) => isBeingConfirmed(attempt))) {
    throw new AppError('conflict', `Invoice ${invoice.number} has a payment being confirmed`, {
      reason: 'paymentBeingConfirmed',
    })
  }
  // A voucher (OXXO, SPEI, PIX…) still payable: the customer may be paying it at a shop right now.
  // No second payment until it is paid or expires (docs/decisions/051).
  const openVoucher = attempts.find((attempt) => isOpenVoucher(attempt))
  if (openVoucher) {
    if (choice && openVoucher.method === choice.method && openVoucher.country === choice.country) {
      return { invoice, paymentId: openVoucher.id, payUrl: openVoucher.payUrl, voucher: true }
    }
    throw new AppError('conflict', `Invoice ${invoice.number} has a voucher to pay`, {
      reason: 'paymentVoucherOpen',
    })
  }
  const since = Date.now() - CHECKOUT_REUSE_MINUTES * 60_000
  const reusable = attempts.find(
    (attempt) =>
      attempt.provider === provider.name &&
      attempt.status === 'pending' &&
      attempt.requestedJpy === invoice.dueJpy &&
      attempt.createdAt.getTime() > since &&
      attempt.method === (choice?.method ?? null) &&
      attempt.country === (choice?.country ?? null),
  )
  if (reusable) return { invoice, paymentId: reusable.id, payUrl: reusable.payUrl, voucher: false }
  const step = moveOf(null, 'start', 'customer')
  const [created] = await tx
    .insert(payments)
    .values({
      invoiceId: invoice.id,
      provider: provider.name,
      status: step.to,
      requestedJpy: invoice.dueJpy,
      method: choice?.method ?? null,
      country: choice?.country ?? null,
    })
    .returning({ id: payments.id })
  if (!created) throw new Error('Unable to store a payment: no row returned')
  await recordOrderEvent(tx, {
    entityType: PAYMENT_ENTITY,
    entityId: created.id,
    event: 'start',
    to: step.to,
    actor: { kind: 'customer', id: actor.id },
    data: {
      invoiceId: invoice.id,
      provider: provider.name,
      requestedJpy: invoice.dueJpy,
      ...(choice ? { method: choice.method, country: choice.country } : {}),
    },
    visibleToCustomer: false,
  })
  return { invoice, paymentId: created.id, payUrl: null, voucher: false }
}

/** Asks the provider for its checkout page (outside any transaction); a failure that is not ours is `paymentProviderDown`. */
async function askForCheckout(
  ctx: OrderContext,
  provider: PaymentProvider,
  invoice: InvoiceRow,
  paymentId: string,
  meta: { locale?: 'es' | 'en' },
  local: {
    country: LocalCountry
    method: LocalMethodId
    payer: { name: string; email: string }
  } | null = null,
) {
  const { company } = await ctx.settings.get()
  const back = (path: string) =>
    `${ctx.appUrl.replace(/\/+$/, '')}/payments/${path}/${provider.name}?payment=${paymentId}`
  try {
    return await provider.createCheckout({
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      amountJpy: invoice.dueJpy,
      description: `${company.name} · ${invoice.number} · ${invoice.ownerNumber}`,
      returnUrl: back('return'),
      cancelUrl: back('cancel'),
      locale: meta.locale ?? (invoice.locale === 'en' ? 'en' : 'es'),
      idempotencyKey: paymentId,
      ...(local
        ? {
            localPayment: local,
            notificationUrl: `${ctx.appUrl.replace(/\/+$/, '')}/api/payments/webhooks/${provider.name}`,
          }
        : {}),
    })
  } catch (error) {
    if (isAppError(error)) throw error
    throw new AppError('upstream_failed', `${provider.name} checkout failed: ${(error as Error).message}`, {
      reason: 'paymentProviderDown',
    })
  }
}

// ---------------------------------------------------------------------------------------------
// The customer's return, webhooks, the reconciliation job
// ---------------------------------------------------------------------------------------------

/**
 * The customer came back from the provider's page (`/payments/return/:provider?payment=…`):
 * asks the provider about the checkout stored on our payment (never what the query says),
 * capturing an approved PayPal order, and settles. The answer is the payment's status for the
 * page's message. A provider that does not answer leaves it pending: the webhook or the
 * reconciliation job settles it later.
 * @throws AppError `not_found` for an unknown payment or provider.
 */
export async function confirmReturn(
  deps: PaymentSystemDeps,
  input: { provider: string; paymentId: string },
): Promise<{ owner: PaymentOwner; status: PaymentStatus }> {
  const notFound = () =>
    new AppError('not_found', `Payment ${input.paymentId} not found`, { reason: 'paymentNotFound' })
  if (!isUuid(input.paymentId)) throw notFound()
  const [payment] = await deps.db
    .select({
      id: payments.id,
      provider: payments.provider,
      providerRef: payments.providerRef,
      status: payments.status,
      requestId: invoices.requestId,
      shipmentId: invoices.shipmentId,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.id, input.paymentId), eq(payments.provider, input.provider)))
  const provider = providerOf(deps, input.provider)
  if (!payment || !provider || !isPaymentStatus(payment.status)) throw notFound()
  const owner = ownerOf(payment)
  if (payment.status !== 'pending' || !payment.providerRef) return { owner, status: payment.status }
  // Committed before the provider is asked (PayPal captures here): should the process die between
  // the capture and our record, the customer's pages say "being confirmed" instead of asking them
  // to pay again, and the job asks the provider again within a minute or two.
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ returnedAt: sql`coalesce(${payments.returnedAt}, now())` })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
    await deps.jobs.enqueue(
      tx,
      'payments.confirm',
      { paymentId: payment.id },
      {
        startAfter: CONFIRM_AFTER_RETURN_SECONDS,
        singleton: { key: payment.id, seconds: BEING_CONFIRMED_MINUTES * 60 },
      },
    )
  })
  let outcome: PaymentOutcome
  try {
    outcome = await provider.confirm(payment.providerRef)
  } catch (error) {
    if (!isAppError(error, 'upstream_failed')) throw error
    return { owner, status: 'pending' }
  }
  const settled = await settlePayment(deps, provider.name, outcome, 'return')
  return { owner, status: settled.status ?? 'pending' }
}

/** A pending payment whose customer came back from the provider's page less than 30 minutes ago. */
export function isBeingConfirmed(
  payment: { status: string; returnedAt: Date | null },
  now: number = Date.now(),
): boolean {
  return (
    payment.status === 'pending' &&
    payment.returnedAt !== null &&
    now - payment.returnedAt.getTime() < BEING_CONFIRMED_MINUTES * 60_000
  )
}

/**
 * The job a return leaves behind (`payments.confirm`): asks the provider once more about that
 * payment, if it is still pending, and settles what it says. A provider that does not answer is a
 * failure, so the queue tries again with back-off; the scheduled reconciliation is the last net.
 */
export async function confirmPendingPayment(
  deps: PaymentSystemDeps,
  paymentId: string,
): Promise<SettleResult['result']> {
  const [payment] = await deps.db
    .select({ provider: payments.provider, providerRef: payments.providerRef, status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId))
  const provider = payment ? providerOf(deps, payment.provider) : null
  if (!payment || !provider || !payment.providerRef || payment.status !== 'pending') return 'unchanged'
  const outcome = await provider.confirm(payment.providerRef)
  return (await settlePayment(deps, provider.name, outcome, 'reconcile')).result
}

/** What a payment pays for (the cancel page goes back to it). */
export async function ownerOfPayment(
  db: Database,
  input: { provider: string; paymentId: string },
): Promise<PaymentOwner | null> {
  if (!isUuid(input.paymentId)) return null
  const [row] = await db
    .select({ requestId: invoices.requestId, shipmentId: invoices.shipmentId })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.id, input.paymentId), eq(payments.provider, input.provider)))
  return row ? ownerOf(row) : null
}

export type WebhookResult = { result: 'processed' | 'replay' | 'ignored'; settled: SettleResult | null }

/**
 * One webhook delivery: verified by the provider's adapter (a forgery writes nothing), recorded
 * once per provider event id, and settled, all in one transaction. A redelivery of an event
 * already processed changes nothing; one whose first processing failed (rolled back) runs again.
 * An event about a checkout that is not ours is kept (unprocessed) for inspection.
 * @throws AppError `not_found` (provider not configured), `invalid` (`webhookInvalid`: forged or
 *   unverifiable: 400), `upstream_failed` (the provider could not be asked to verify: 502, and
 *   the provider delivers again later).
 */
export async function handleWebhook(
  deps: PaymentSystemDeps,
  providerName: string,
  headers: Record<string, string | undefined>,
  rawBody: string,
): Promise<WebhookResult> {
  const provider = providerOf(deps, providerName)
  if (!provider) throw new AppError('not_found', `No payment provider ${providerName} is configured`)
  const verified = await provider.verifyWebhook(headers, rawBody)
  if (verified.refused) {
    throw new AppError('invalid', `A ${providerName} webhook was refused: ${verified.refused}`, {
      reason: 'webhookInvalid',
    })
  }
  let payload: unknown
  try {
    payload = JSON.parse(rawBody)
  } catch {
    payload = { unparsed: rawBody.slice(0, 10_000) }
  }
  return deps.db.transaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvents)
      .values({ provider: provider.name, eventId: verified.eventId, type: verified.type, payload })
      .onConflictDoNothing({ target: [webhookEvents.provider, webhookEvents.eventId] })
      .returning({ id: webhookEvents.id })
    if (!event) return { result: 'replay', settled: null } satisfies WebhookResult
    const settled = verified.outcome
      ? await settleWithin(tx, deps.jobs, provider.name, verified.outcome, 'webhook')
      : null
    if (settled?.result !== 'unknown') {
      await tx.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, event.id))
    }
    return { result: settled ? 'processed' : 'ignored', settled } satisfies WebhookResult
  })
}

export type ReconcileReport = Record<SettleResult['result'] | 'unreachable' | 'abandoned', number>

/**
 * The scheduled job: asks the provider about every checkout pending for more than 15 minutes
 * (a webhook that never came, a customer who closed the tab after approving: PayPal's `confirm`
 * captures an approved order, so the customer's approval is honoured), and settles what it
 * says. A provider that does not answer is asked again at the next run. Checkouts still pending
 * after 72 hours, and those that never reached the provider, are closed as abandoned: no
 * provider keeps a checkout open that long, and a late report of money taken would still be
 * recorded (failed → succeeded/held/duplicate).
 */
export async function reconcilePendingPayments(
  deps: PaymentSystemDeps,
  now: Date = new Date(),
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    paid: 0,
    held: 0,
    duplicate: 0,
    failed: 0,
    pending: 0,
    unchanged: 0,
    unknown: 0,
    unreachable: 0,
    abandoned: 0,
  }
  const askBefore = new Date(now.getTime() - RECONCILE_AFTER_MINUTES * 60_000)
  const giveUpBefore = new Date(now.getTime() - ABANDON_AFTER_HOURS * 3_600_000)
  const voucherGraceBefore = new Date(now.getTime() - VOUCHER_GRACE_HOURS * 3_600_000)
  const due = await deps.db
    .select({ provider: payments.provider, providerRef: payments.providerRef })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        ne(payments.provider, 'manual'),
        isNotNull(payments.providerRef),
        lte(payments.createdAt, askBefore),
        // A voucher lives as long as the provider says (days): asked about until a day past it.
        or(gt(payments.createdAt, giveUpBefore), gt(payments.expiresAt, voucherGraceBefore)),
      ),
    )
    .orderBy(payments.createdAt)
    .limit(RECONCILE_BATCH)
  for (const row of due) {
    const provider = providerOf(deps, row.provider)
    if (!provider || !row.providerRef) continue
    let outcome: PaymentOutcome
    try {
      outcome = await provider.confirm(row.providerRef)
    } catch (error) {
      if (!isAppError(error, 'upstream_failed')) throw error
      report.unreachable += 1
      continue
    }
    const settled = await settlePayment(deps, provider.name, outcome, 'reconcile')
    report[settled.result] += 1
  }

  const stale = await deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        lte(payments.createdAt, giveUpBefore),
        or(isNull(payments.expiresAt), lte(payments.expiresAt, voucherGraceBefore)),
      ),
    )
    .orderBy(payments.createdAt)
    .limit(RECONCILE_BATCH)
  for (const { id } of stale) {
    const closed = await deps.db.transaction((tx) =>
      applyPaymentEventIfAllowed(tx, { id, event: 'abandon', actor: { kind: 'system', id: null } }),
    )
    if (closed) report.abandoned += 1
  }
  return report
}
