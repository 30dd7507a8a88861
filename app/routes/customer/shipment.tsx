import { useTranslation } from 'react-i18next'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { ConfirmSubmit } from '#app/components/confirm-submit.tsx'
import { ConversationThread } from '#app/components/conversations/conversation-thread.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { CustomerDeclaration } from '#app/components/orders/customs-declaration.tsx'
import { PackedBox } from '#app/components/orders/packed-box.tsx'
import { PaymentPanel } from '#app/components/orders/payment-panel.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import { ShipmentAddressBlock } from '#app/components/orders/shipment-address.tsx'
import { ShipmentCostsPanel, ShipmentDocuments } from '#app/components/orders/shipment-costs.tsx'
import { ShipmentHeader } from '#app/components/orders/shipment-header.tsx'
import { ShipmentTracking } from '#app/components/orders/shipment-tracking.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { conversationForPage } from '#app/lib/conversation-views.server.ts'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import {
  declarationAction,
  declarationForPage,
  isDeclarationIntent,
} from '#app/lib/declaration-views.server.ts'
import { actionFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import {
  claimForPage,
  packedBoxForPage,
  shipmentAddressForPage,
  shipmentCostsForPage,
  shipmentEstimateForPage,
  trackingForPage,
} from '#app/lib/shipment-views.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { lostParcelRefundSentAt } from '#core/payments/money-history.ts'
import { claimOfShipment, openClaim } from '#core/shipping/claims.ts'
import { getDeclaration } from '#core/shipping/customs-declaration.ts'
import { confirmDelivery } from '#core/shipping/shipment-delivery.ts'
import { CANCEL_REASON_MAX } from '#core/shipping/shipment-schemas.ts'
import { cancelShipment, getShipment } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipment.ts'
import {
  loadPaymentPanel,
  payAction,
  payFromBalanceAction,
  readPaymentForm,
  reportTransferAction,
} from './request-payment.server.ts'

// One of the customer's shipments (docs/decisions/028): its items, the address as it was when
// asked, the estimate, its status and history; cancel while it waits to be packed; once packed,
// the box (weight, size, photo), the shipping receipt and paying it (the quote's payment panel). Another
// customer's shipment answers as a missing one (404).

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const shipment = await getShipment(orders, params.id)
  const { language, currency } = context.get(requestContext)
  const when = japanDateTime(language)
  const payment =
    shipment.status === 'requested' || shipment.status === 'cancelled'
      ? null
      : await loadPaymentPanel(
          context,
          { kind: 'shipment', id: shipment.id },
          new URL(request.url).searchParams,
        )
  const { packing } = shipment
  const [claim, { claimAfterDays, yenRates }, costs, declaration] = await Promise.all([
    shipment.tracking ? claimOfShipment(orders.db, shipment.id) : Promise.resolve(null),
    orders.settings.get(),
    shipmentCostsForPage(orders, shipment, { language, area: 'customer' }),
    // The customs declaration (issue 30): to review before packing; a cancelled shipment has none.
    shipment.status === 'cancelled' ? Promise.resolve(null) : getDeclaration(orders, shipment.id),
  ])
  const refundSentAt =
    claim?.status === 'lost' ? await lostParcelRefundSentAt(orders.db, shipment.number) : null
  const claimFrom = shipment.tracking
    ? new Date(shipment.tracking.shippedAt.getTime() + claimAfterDays * 86_400_000)
    : null
  // The conversation with the team (docs/decisions/048): shown, and so read.
  const conversation = await conversationForPage(context, { kind: 'shipment', id: shipment.id })
  return {
    conversation,
    payment,
    costs,
    declaration: declaration ? declarationForPage(declaration, language) : null,
    money: { language, currency, rates: currency === 'JPY' ? null : yenRates },
    tracking: trackingForPage(shipment, language),
    claim: claimForPage(claim, language, refundSentAt),
    claimable: claimFrom !== null && shipment.status === 'shipped' && claim === null,
    claimFrom: claimFrom && Date.now() < claimFrom.getTime() ? when(claimFrom) : null,
    box: packing
      ? packedBoxForPage(shipment.id, packing, payment?.invoice, { language, area: 'customer' })
      : null,
    shipment: {
      id: shipment.id,
      number: shipment.number,
      status: shipment.status,
      version: shipment.version,
      method: shipment.method,
      route: shipment.route,
      address: shipmentAddressForPage(shipment, language),
      estimate: shipmentEstimateForPage(shipment, language),
      lines: shipment.lines.map((line) => ({
        id: line.id,
        requestId: line.requestId,
        requestNumber: line.requestNumber,
        position: line.position,
        title: line.title,
        weight: line.weightGrams === null ? '' : formatGrams(line.weightGrams, language),
      })),
      events: shipment.events.map((event) => ({ ...event, createdLabel: when(event.createdAt) })),
    },
  }
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const { formData: form, problem } = await readPaymentForm(request)
  // Paying the shipping receipt: the same checkout as a quote's (the panel's `intent=pay`), or
  // saying it was paid by bank transfer (`intent=report_transfer`, docs/decisions/036).
  const intent = form.get('intent')
  if (intent === 'pay') return payAction(form, context, { kind: 'shipment', id: params.id })
  if (intent === 'pay_balance')
    return payFromBalanceAction(form, context, { kind: 'shipment', id: params.id })
  if (intent === 'report_transfer' || problem === 'tooLarge') {
    return reportTransferAction(form, context, { kind: 'shipment', id: params.id }, problem)
  }
  const orders = getOrderContext(context)
  if (isDeclarationIntent(intent, 'customer')) return declarationAction(orders, params.id, intent, form)
  const input = { id: params.id, version: form.get('version') }
  try {
    if (intent === 'deliver') {
      await confirmDelivery(orders, input)
      return redirectWithNotice(context, `/user-dashboard/shipments/${params.id}`, 'deliveryConfirmed')
    }
    if (intent === 'claim') {
      await openClaim(orders, { ...input, note: form.get('note') ?? undefined })
      return redirectWithNotice(context, `/user-dashboard/shipments/${params.id}`, 'parcelClaimed')
    }
    await cancelShipment(orders, {
      ...input,
      reason: form.get('reason') ?? undefined,
      confirm: form.get('confirm') ?? undefined,
    })
  } catch (error) {
    return actionFailure(error, { intent: typeof intent === 'string' ? intent : 'cancel' })
  }
  return redirectWithNotice(context, `/user-dashboard/shipments/${params.id}`, 'shipmentCancelled')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function ShipmentRoute() {
  const { t } = useTranslation()
  const {
    shipment,
    payment,
    box,
    tracking,
    claim,
    claimable,
    claimFrom,
    costs,
    money,
    declaration,
    conversation,
  } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const paying = answer && 'payment' in answer ? answer.payment : null
  const refusal = answer && 'messageKey' in answer ? answer.messageKey : null
  const title = t('shipments.title', { number: shipment.number })
  return (
    <article aria-labelledby="shipment-heading" className="space-y-6">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/user-dashboard/shipping" className="font-semibold text-red-800 underline">
          {t('shipments.back')}
        </Link>
      </p>
      <FormAlert tone="warning" look="box">
        {errorText(t, refusal)}
      </FormAlert>
      <ShipmentHeader
        title={title}
        status={t(`shipments.statuses.${shipment.status}`)}
        statusTestId="shipment-status"
      />
      <p className="text-slate-800">
        {t(`shipments.methods.${shipment.method}`)} · {t(`shipments.routes.${shipment.route as 'direct'}`)}
      </p>
      <ShipmentItems lines={shipment.lines} />
      {declaration ? (
        <CustomerDeclaration
          declaration={declaration}
          answer={answer && 'intent' in answer && answer.intent === 'declaration' ? answer : null}
        />
      ) : null}
      <ShipmentAddressBlock
        headingId="address-heading"
        heading={t('shipments.addressHeading')}
        address={shipment.address}
      />
      {box ? (
        <PackedBox
          box={box}
          heading={t('shipments.packedHeading')}
          receiptText={t('shipments.receiptLink', { number: box.receipt?.number ?? '' })}
        >
          <p className="text-sm text-slate-700">{t('shipments.customs')}</p>
        </PackedBox>
      ) : null}
      <ShipmentCostsPanel costs={costs} money={money} voided={shipment.status === 'cancelled'} />
      <ShipmentDocuments documents={costs.documents} />
      {payment?.invoice ? (
        <PaymentPanel
          variant="standalone"
          ownerKind="shipment"
          panel={payment}
          checkout={paying?.checkout ?? null}
          formError={errorText(t, paying?.error)}
          reportResult={answer && 'result' in answer ? answer.result : null}
        />
      ) : null}
      {tracking ? <ShipmentTracking tracking={tracking} /> : null}
      {shipment.status === 'shipped' ? <ConfirmDeliveryForm version={shipment.version} /> : null}
      {claim ? (
        <ClaimStatus claim={claim} />
      ) : claimable ? (
        <ClaimSection version={shipment.version} claimFrom={claimFrom} />
      ) : null}
      {/* While a transfer the customer reported is checked, they cannot cancel (ADR 036). */}
      {(shipment.status === 'requested' || shipment.status === 'packed') && !payment?.transferReported ? (
        <CancelShipmentForm
          number={shipment.number}
          version={shipment.version}
          openReceipt={shipment.status === 'packed' ? costs.receipt : null}
        />
      ) : null}
      <RequestTimeline
        headingId="shipment-history"
        heading={t('shipments.history')}
        events={shipment.events}
        eventLabel={(event) => t(`shipments.events.${event.event as 'request'}`)}
        detail={(event) => (event.note ? `${event.createdLabel} · ${event.note}` : event.createdLabel)}
      />
      <ConversationThread
        prefix="conversation"
        messages={conversation.messages}
        action={`/user-dashboard/shipments/${shipment.id}/messages`}
        fileHref={(id) => `/user-dashboard/message-files/${id}`}
      />
    </article>
  )
}

type ShipmentData = ReturnType<typeof useLoaderData<typeof loader>>

/** The items in the shipment, each linking to its request, with its weight. */
function ShipmentItems({ lines }: { lines: ShipmentData['shipment']['lines'] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
        {t('shipments.itemsHeading')}
      </h2>
      <ul className="mt-2 space-y-1 text-slate-800">
        {lines.map((line) => (
          <li key={line.id}>
            <Link to={`/user-dashboard/requests/${line.requestId}`} className="underline">
              {line.title
                ? t('shipments.itemLine', {
                    title: line.title,
                    number: line.requestNumber,
                    position: line.position,
                  })
                : t('shipments.itemLineUntitled', { number: line.requestNumber, position: line.position })}
            </Link>{' '}
            · {line.weight}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** "It arrived": the customer confirms the delivery of a shipped parcel. */
function ConfirmDeliveryForm({ version }: { version: number }) {
  const { t } = useTranslation()
  return (
    <Form method="post" className="space-y-2 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold text-slate-900">{t('shipments.confirmHeading')}</h2>
      <input type="hidden" name="intent" value="deliver" />
      <input type="hidden" name="version" value={version} />
      <p id="confirm-hint" className="text-slate-700">
        {t('shipments.confirmHint')}
      </p>
      <button
        type="submit"
        aria-describedby="confirm-hint"
        className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
      >
        {t('shipments.confirm')}
      </button>
    </Form>
  )
}

/** Where the customer's claim for a parcel that did not arrive stands. */
function ClaimStatus({ claim }: { claim: NonNullable<ShipmentData['claim']> }) {
  const { t } = useTranslation()
  return (
    <section
      aria-labelledby="claim-heading"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="claim-heading" className="text-lg font-semibold text-slate-900">
        {t('shipments.claimHeading')}
      </h2>
      <p className="text-slate-900" data-testid="claim-status">
        {t(`shipments.claimStatus.${claim.refundSentLabel ? 'lostRefunded' : claim.status}`, {
          date: claim.refundSentLabel ?? claim.openedLabel,
          refund: claim.refund ?? '',
          reason: claim.closeReason ?? '',
        })}
      </p>
    </section>
  )
}

/** Claiming a parcel that has not arrived: the date from which one may, or the form. */
function ClaimSection({ version, claimFrom }: { version: number; claimFrom: string | null }) {
  const { t } = useTranslation()
  const answer = useActionData<typeof action>()
  const noteError = answer && 'fieldErrors' in answer ? answer.fieldErrors.note?.[0] : undefined
  return (
    <section aria-labelledby="claim-heading" className="space-y-2 rounded-lg border border-slate-200 p-4">
      <h2 id="claim-heading" className="text-lg font-semibold text-slate-900">
        {t('shipments.claimHeading')}
      </h2>
      {claimFrom ? (
        <p className="text-slate-700">{t('shipments.claimWait', { date: claimFrom })}</p>
      ) : (
        <Form method="post" className="space-y-3">
          <p className="text-slate-700">{t('shipments.claimLead')}</p>
          <input type="hidden" name="intent" value="claim" />
          <input type="hidden" name="version" value={version} />
          <FormField
            id="claim-note"
            label={t('shipments.claimNote')}
            error={errorTextIn(t, 'shipments.claimErrors', noteError)}
          >
            {(control) => (
              <textarea {...control} name="note" rows={3} maxLength={2000} className={`${inputClass} py-2`} />
            )}
          </FormField>
          <button
            type="submit"
            className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
          >
            {t('shipments.claimSubmit')}
          </button>
        </Form>
      )}
    </section>
  )
}

/** Cancelling the shipment, with a reason and a confirmation that names the receipt to void, if any. */
function CancelShipmentForm({
  number,
  version,
  openReceipt,
}: {
  number: string
  version: number
  /** The packed shipment's receipt still to pay. */
  openReceipt: ShipmentData['costs']['receipt'] | null
}) {
  const { t } = useTranslation()
  const answer = useActionData<typeof action>()
  const cancelErrors =
    answer && 'fieldErrors' in answer && answer.intent === 'cancel' ? answer.fieldErrors : null
  return (
    <Form method="post" className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold text-slate-900">{t('shipments.cancelHeading')}</h2>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="version" value={version} />
      <p id="cancel-hint" className="text-slate-700">
        {t('shipments.cancelHint')}
      </p>
      <FormField
        id="cancel-reason"
        label={t('shipments.cancelReason')}
        hint={t('shipments.cancelReasonHint')}
        error={errorTextIn(t, 'shipments.errors', cancelErrors?.reason?.[0])}
      >
        {(control) => (
          <textarea
            {...control}
            name="reason"
            rows={2}
            maxLength={CANCEL_REASON_MAX}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
      <ConfirmSubmit
        question={
          openReceipt
            ? t('shipments.cancelQuestionReceipt', {
                number,
                invoice: openReceipt.number,
                amount: openReceipt.toPay ?? openReceipt.total,
              })
            : t('shipments.cancelQuestion', { number })
        }
        confirmLabel={t('shipments.cancelConfirm', { number })}
        submitLabel={t('shipments.cancel')}
        error={cancelErrors?.confirm?.[0] ? t('confirmAction.required') : null}
        describedBy="cancel-hint"
        submitClassName="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
      />
    </Form>
  )
}
