import { and, asc, eq, isNotNull, sql } from 'drizzle-orm'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { isAppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import type { Executor } from '#db/client.ts'
import { orderEvents, payments, refunds } from '#db/schema/index.ts'
import { MONEY_HISTORY_PATH, REFUND_FAILED_REASON } from './money-history.ts'
import { PAYMENT_ENTITY } from './payment-events.ts'
import type { RefundState } from './provider.ts'
import { invoiceWithOwner, type PaymentSystemDeps, PROVIDER_LABELS, providerOf } from './settle-payment.ts'

/**
 * A refund through the provider that it reported `pending` (a bank's delay, a card network's) is
 * asked about again by the reconciliation job (docs/decisions/034): once the provider says it
 * went through, the customer is told it is confirmed; if the provider says it failed, the money
 * is owed again (a `due` row, reason `refund_failed`) and staff are told, as for any refund due.
 * Refund rows are never changed (ADR 021): where a provider refund stands is the payment's
 * history, `refund_done` (with the provider's status then) and at most one `refund_confirmed` or
 * `refund_failed` after it, each with the refund id. Each in one transaction under the payment's
 * lock, once: whoever asks at the same time finds the answer already written.
 */

/** Whether the payment's history already says how this provider refund ended. */
async function refundSettled(tx: Executor, paymentId: string, refundRef: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.entityType, PAYMENT_ENTITY),
        eq(orderEvents.entityId, paymentId),
        sql`${orderEvents.event} in ('refund_confirmed', 'refund_failed')`,
        sql`${orderEvents.data}->>'refundRef' = ${refundRef}`,
      ),
    )
    .limit(1)
  return row !== undefined
}

/** At most this many pending refunds are asked about per run. */
export const CONFIRM_BATCH = 50

export type RefundConfirmReport = { confirmed: number; failed: number; pending: number; unreachable: number }

export async function confirmPendingRefunds(deps: PaymentSystemDeps): Promise<RefundConfirmReport> {
  const report: RefundConfirmReport = { confirmed: 0, failed: 0, pending: 0, unreachable: 0 }
  // Refunds made through a provider (few: the partial unique index on their ids), whose history
  // says the provider was still processing them and says nothing since.
  const waiting = await deps.db
    .select({
      id: refunds.id,
      refundRef: refunds.providerRef,
      amountJpy: refunds.amountJpy,
      paymentId: refunds.paymentId,
      invoiceId: payments.invoiceId,
      provider: payments.provider,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        isNotNull(refunds.providerRef),
        sql`exists (select 1 from ${orderEvents} e where e.entity_type = ${PAYMENT_ENTITY} and e.entity_id = ${refunds.paymentId} and e.event = 'refund_done' and e.data->>'refundRef' = ${refunds.providerRef} and e.data->>'status' = 'pending')`,
        sql`not exists (select 1 from ${orderEvents} e where e.entity_type = ${PAYMENT_ENTITY} and e.entity_id = ${refunds.paymentId} and e.event in ('refund_confirmed', 'refund_failed') and e.data->>'refundRef' = ${refunds.providerRef})`,
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(CONFIRM_BATCH)
  for (const row of waiting) {
    const provider = providerOf(deps, row.provider)
    if (!provider || !row.refundRef) continue
    let state: RefundState
    try {
      state = await provider.lookupRefund(row.refundRef)
    } catch (error) {
      if (!isAppError(error, 'upstream_failed') && !isAppError(error, 'invalid')) throw error
      report.unreachable += 1
      continue
    }
    if (state === 'pending') {
      report.pending += 1
      continue
    }
    const moved = await deps.db.transaction(async (tx) => {
      // The lock order of every order service: the owner, its invoice, the payment.
      const invoice = await invoiceWithOwner(tx, row.invoiceId, true)
      await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, row.paymentId)).for('update')
      if (!invoice || !row.refundRef || (await refundSettled(tx, row.paymentId, row.refundRef))) return false
      const actor = { kind: 'provider' as const, id: null }
      const data = { amountJpy: row.amountJpy, provider: provider.name, refundRef: row.refundRef }
      if (state === 'succeeded') {
        await recordOrderEvent(tx, {
          entityType: PAYMENT_ENTITY,
          entityId: row.paymentId,
          event: 'refund_confirmed',
          actor,
          data,
          visibleToCustomer: false,
        })
        await notifyCustomer(tx, deps.jobs, {
          userId: invoice.userId,
          type: 'refund_confirmed',
          params: { number: invoice.ownerNumber, amountJpy: row.amountJpy },
          requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
          link: MONEY_HISTORY_PATH,
        })
        return true
      }
      // Not given back after all: owed again, for an admin to send once more.
      await tx.insert(refunds).values({
        paymentId: row.paymentId,
        amountJpy: row.amountJpy,
        status: 'due',
        reason: REFUND_FAILED_REASON,
      })
      await setIfVersion(tx, payments, { id: row.paymentId, set: {} })
      await recordOrderEvent(tx, {
        entityType: PAYMENT_ENTITY,
        entityId: row.paymentId,
        event: 'refund_failed',
        actor,
        data,
        visibleToCustomer: false,
      })
      await notifyStaff(tx, deps.jobs, {
        type: 'refund_due',
        params: {
          number: invoice.ownerNumber,
          amountJpy: row.amountJpy,
          provider: PROVIDER_LABELS[provider.name],
        },
        link: ownerPaths(invoice.owner).staff,
      })
      return true
    })
    if (moved) report[state === 'succeeded' ? 'confirmed' : 'failed'] += 1
  }
  return report
}
