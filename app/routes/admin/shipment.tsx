import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import {
  CancelShipmentForm,
  ShipmentHistory,
  ShipmentItems,
  ShipmentPeople,
  StaffPackedBox,
} from '#app/components/admin/shipment-page-parts.tsx'
import { StaffConversationStatus } from '#app/components/conversations/assignment.tsx'
import { ConversationThread } from '#app/components/conversations/conversation-thread.tsx'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { StaffDeclaration } from '#app/components/orders/customs-declaration.tsx'
import { type PackPreview, PackShipmentForm } from '#app/components/orders/pack-shipment-form.tsx'
import { ReissueReceiptForm } from '#app/components/orders/reissue-receipt-form.tsx'
import { ShipmentCostsPanel, ShipmentDocuments } from '#app/components/orders/shipment-costs.tsx'
import { ShipmentHeader } from '#app/components/orders/shipment-header.tsx'
import { ShipmentTracking } from '#app/components/orders/shipment-tracking.tsx'
import {
  isStaffPaymentIntent,
  StaffPayments,
  staffPaymentsAnswer,
} from '#app/components/orders/staff-payments.tsx'
import { DeliverForm, ShipForm, StaffClaimPanel } from '#app/components/orders/staff-shipment-actions.tsx'
import { VoidAmount } from '#app/components/orders/void-amount.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { conversationForPage } from '#app/lib/conversation-views.server.ts'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import {
  declarationAction,
  declarationForPage,
  isDeclarationIntent,
} from '#app/lib/declaration-views.server.ts'
import { readForm } from '#app/lib/form-data.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { actionFailure, formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import type { NoticeName } from '#app/lib/notice.ts'
import {
  claimForPage,
  packedBoxForPage,
  shipmentAddressForPage,
  shipmentCostsForPage,
  shipmentEstimateForPage,
  trackingForPage,
} from '#app/lib/shipment-views.server.ts'
import { getOrderContext, getUser } from '#app/middleware/auth.server.ts'
import { formatMoney } from '#core/money/money.ts'
import { isAppError } from '#core/shared/errors.ts'
import { can } from '#core/shared/staff-policy.ts'
import { claimOfShipment, investigateClaim, resolveClaim } from '#core/shipping/claims.ts'
import { getDeclaration } from '#core/shipping/customs-declaration.ts'
import { previewReissue, reissueShippingReceipt } from '#core/shipping/receipt-reissue.ts'
import { confirmDelivery, shipShipment } from '#core/shipping/shipment-delivery.ts'
import { packShipment, previewPacking } from '#core/shipping/shipment-packing.ts'
import {
  PACKING_FORM_BODY_BYTES,
  PACKING_LIMITS,
  PackShipmentSchema,
  ReissueReceiptSchema,
} from '#core/shipping/shipment-schemas.ts'
import { cancelShipment, getShipment } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipment.ts'
import { loadStaffPayments, staffPaymentAction } from './request-payments.server.ts'

// One shipment for staff (docs/decisions/028): who, where to, what to pack and where each item
// sits (package and shelf), the estimate the customer saw, the history; cancel while it waits
// to be packed (the customer is told); pack, weigh and price it, which issues the shipping
// receipt (docs/decisions/029); then its payments, as on a request page.

export async function loader({ params, context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const shipment = await getShipment(orders, params.id)
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  const payments =
    shipment.status === 'requested' || shipment.status === 'cancelled'
      ? null
      : await loadStaffPayments(context, { kind: 'shipment', id: shipment.id })
  const { packing } = shipment
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const claim = shipment.tracking ? await claimOfShipment(orders.db, shipment.id) : null
  const costs = await shipmentCostsForPage(orders, shipment, { language, area: 'staff' })
  // The customs declaration (issue 30); a cancelled shipment has none.
  const declaration = shipment.status === 'cancelled' ? null : await getDeclaration(orders, shipment.id)
  return {
    // The conversation with the customer (docs/decisions/048): shown, and so read by staff.
    conversation: await conversationForPage(context, { kind: 'shipment', id: shipment.id }),
    viewerId: getUser(context).id,
    costs,
    declaration: declaration ? declarationForPage(declaration, language) : null,
    money: { language, currency: 'JPY' as const, rates: null },
    // Re-issuing a receipt moves money: admins (docs/decisions/037).
    canReissue:
      can(orders.actor, 'record_payment') &&
      costs.receipt !== null &&
      ['packed', 'paid', 'shipped', 'delivered'].includes(shipment.status),
    tracking: trackingForPage(shipment, language),
    claim: claimForPage(claim, language),
    canConfirmLoss: can(orders.actor, 'record_payment'),
    canPack: can(orders.actor, 'handle_arrivals'),
    payments,
    box: packing
      ? {
          ...packedBoxForPage(shipment.id, packing, payments?.invoice, { language, area: 'staff' }),
          ratePrice: packing.ratePriceJpy === null ? null : yen(packing.ratePriceJpy),
          priceReason: packing.priceReason,
        }
      : null,
    shipment: {
      id: shipment.id,
      number: shipment.number,
      status: shipment.status,
      version: shipment.version,
      method: shipment.method,
      route: shipment.route,
      customer: shipment.customer,
      address: shipmentAddressForPage(shipment, language),
      estimate: shipmentEstimateForPage(shipment, language),
      lines: shipment.lines.map((line) => ({
        ...line,
        weight: line.weightGrams === null ? '' : formatGrams(line.weightGrams, language),
      })),
      events: shipment.events.map((event) => ({ ...event, createdLabel: when(event.createdAt) })),
    },
  }
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const read = await readForm(request, {
    maxFiles: PACKING_LIMITS.photos + 1,
    maxBytes: PACKING_FORM_BODY_BYTES,
  })
  const form = read.ok ? read.formData : new FormData()
  // Only the packing form sends files: a body too large (a photo over the limit) or unreadable is
  // that form's, answered on its photo field (never read as another intent: it was a cancel).
  const intent = read.ok ? form.get('intent') : 'pack'
  const owner = { kind: 'shipment' as const, id: params.id }
  if (intent === 'pack') return packAction(form, context, params.id, read.ok ? null : read.problem)
  if (intent === 'reissue') return reissueAction(form, context, params.id)
  if (isStaffPaymentIntent(intent)) return staffPaymentAction(intent, form, context, owner)
  const orders = getOrderContext(context)
  if (isDeclarationIntent(intent, 'staff')) return declarationAction(orders, params.id, intent, form)
  const field = (name: string) => form.get(name) ?? undefined
  const version = form.get('version')
  const back = (notice: NoticeName) =>
    redirectWithNotice(context, `/admin-dashboard/shipments/${params.id}`, notice)
  try {
    if (intent === 'ship') {
      await shipShipment(orders, {
        id: params.id,
        version,
        carrier: field('carrier'),
        trackingNumber: field('trackingNumber'),
      })
      return back('shipmentShipped')
    }
    if (intent === 'deliver') {
      await confirmDelivery(orders, { id: params.id, version })
      return back('shipmentDelivered')
    }
    if (intent === 'investigate') {
      await investigateClaim(orders, {
        claimId: field('claimId'),
        version,
        carrierReference: field('carrierReference'),
        note: field('note'),
      })
      return back('claimSaved')
    }
    if (intent === 'resolve') {
      await resolveClaim(orders, {
        claimId: field('claimId'),
        version,
        resolution: field('resolution'),
        reason: field('reason'),
      })
      return back('claimSaved')
    }
    await cancelShipment(orders, {
      id: params.id,
      version,
      reason: field('reason'),
      confirm: field('confirm'),
    })
  } catch (error) {
    return actionFailure(error, { intent: typeof intent === 'string' ? intent : 'cancel' })
  }
  return back('shipmentCancelledByStaff')
}

/** `intent=pack`: weigh, price and issue the shipping receipt (with the box's photo). */
async function packAction(
  form: FormData,
  context: Route.ActionArgs['context'],
  id: string,
  problem: 'tooLarge' | 'malformed' | null,
) {
  if (problem) {
    // Nothing of the form could be read: the photo's own message on its field, no other field's.
    const result: SubmissionResult<string[]> = {
      status: 'error',
      initialValue: null,
      error:
        problem === 'tooLarge'
          ? { '': ['errors.reasons.shipmentInvalid'], photos: ['photoTooLarge'] }
          : { '': ['errors.reasons.formMalformed'] },
    }
    return data({ intent: 'pack' as const, result }, { status: problem === 'tooLarge' ? 413 : 400 })
  }
  form.set('id', id)
  const photos = form.getAll('photos').filter((value): value is File => typeof value !== 'string')
  form.delete('photos')
  const submission = parseSubmission(form, { schema: PackShipmentSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'pack' as const, result: submission.reply() }, { status: 400 })
  }
  const { shippingRates, language } = context.get(requestContext)
  const orders = getOrderContext(context)
  const { tables } = await shippingRates.get()
  try {
    await packShipment(orders, submission.payload, tables, photos)
  } catch (error) {
    // Another price than the rate table's waits for confirmation: the same form comes back with
    // the receipt's amounts to confirm (docs/decisions/037).
    if (isAppError(error) && error.details.reason === 'priceConfirmationRequired') {
      const preview = await previewPacking(orders, submission.payload, tables).catch(() => null)
      const yen = (amount: number | null) => (amount === null ? null : formatMoney(amount, 'JPY', language))
      return formFailure(error, submission, {
        intent: 'pack' as const,
        preview: preview
          ? {
              number: preview.number,
              weight: formatGrams(preview.weightG, language),
              price: yen(preview.priceJpy) ?? '',
              rate: yen(preview.ratePriceJpy),
              storage: yen(preview.totals.storageFeeJpy) ?? '',
              tax: yen(preview.totals.taxJpy) ?? '',
              total: yen(preview.totals.totalJpy) ?? '',
            }
          : null,
      })
    }
    return formFailure(error, submission, { intent: 'pack' as const })
  }
  return redirectWithNotice(context, `/admin-dashboard/shipments/${id}`, 'shipmentPacked')
}

/**
 * `intent=reissue`: an admin re-issues the receipt at a corrected price (docs/decisions/037). The
 * first post (not confirmed yet) answers with what would happen and its amounts, to confirm.
 */
async function reissueAction(form: FormData, context: Route.ActionArgs['context'], id: string) {
  form.set('id', id)
  const submission = parseSubmission(form, { schema: ReissueReceiptSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'reissue' as const, result: submission.reply() }, { status: 400 })
  }
  const orders = getOrderContext(context)
  const { language } = context.get(requestContext)
  try {
    await reissueShippingReceipt(orders, submission.payload)
  } catch (error) {
    if (isAppError(error) && error.details.reason === 'actionNotConfirmed') {
      const plan = await previewReissue(orders, submission.payload).catch(() => null)
      const yen = (amount: number) => formatMoney(amount, 'JPY', language)
      return formFailure(error, submission, {
        intent: 'reissue' as const,
        preview: plan
          ? {
              outcome:
                !plan.creditNote && plan.carriedJpy === 0
                  ? ('replace' as const)
                  : plan.toPayJpy > 0
                    ? ('topay' as const)
                    : ('refund' as const),
              number: plan.current.number,
              old: yen(plan.current.totalJpy),
              total: yen(plan.totals.totalJpy),
              toPay: yen(plan.toPayJpy),
              refund: yen(plan.refundDueJpy),
            }
          : null,
      })
    }
    return formFailure(error, submission, { intent: 'reissue' as const })
  }
  return redirectWithNotice(context, `/admin-dashboard/shipments/${id}`, 'receiptReissued')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffShipmentRoute() {
  const { t } = useTranslation()
  const {
    shipment,
    canPack,
    payments,
    box,
    tracking,
    claim,
    canConfirmLoss,
    costs,
    money,
    canReissue,
    declaration,
    conversation,
    viewerId,
  } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const refusal = answer && 'messageKey' in answer ? answer.messageKey : null
  const formAnswer = formAnswerOf(answer)
  const plainAnswer = answer && 'fieldErrors' in answer ? answer : null
  const cancelErrors = plainAnswer && plainAnswer.intent === 'cancel' ? plainAnswer.fieldErrors : null
  const title = t('staffShipments.detailTitle', { number: shipment.number })
  return (
    <article aria-labelledby="shipment-heading" className="space-y-6">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/admin-dashboard/shipments" className="font-semibold text-red-800 underline">
          {t('staffShipments.back')}
        </Link>
      </p>
      <FormAlert tone="warning" look="box">
        {errorText(t, refusal)}
      </FormAlert>
      <ShipmentHeader title={title} status={t(`staffShipments.statuses.${shipment.status}`)} />
      <p className="text-slate-800">
        <VoidAmount voided={shipment.status === 'cancelled'}>
          {t('staffShipments.estimate', {
            ...shipment.estimate,
            method: t(`staffShipments.methods.${shipment.method}`),
          })}
        </VoidAmount>{' '}
        · {t(`staffShipments.route.${shipment.route as 'direct'}`)}
      </p>
      <ShipmentPeople shipment={shipment} />
      <ShipmentItems lines={shipment.lines} />
      {declaration ? (
        <StaffDeclaration
          declaration={declaration}
          shipmentId={shipment.id}
          canEdit={canPack}
          answer={answer && 'intent' in answer && answer.intent === 'declaration' ? answer : null}
        />
      ) : null}
      {box ? <StaffPackedBox box={box} /> : null}
      <ShipmentCostsPanel costs={costs} money={money} voided={shipment.status === 'cancelled'} />
      <ShipmentDocuments documents={costs.documents} />
      {canReissue && costs.receipt ? (
        <ReissueReceiptForm
          shipment={{ id: shipment.id, version: shipment.version }}
          receipt={{ number: costs.receipt.number, total: costs.receipt.total }}
          answer={formAnswer?.intent === 'reissue' ? formAnswer : null}
        />
      ) : null}
      {payments ? <StaffPayments payments={payments} answer={staffPaymentsAnswer(formAnswer)} /> : null}
      {tracking ? <ShipmentTracking tracking={tracking} /> : null}
      {shipment.status === 'paid' && canPack ? (
        <ShipForm version={shipment.version} answer={plainAnswer} />
      ) : null}
      {shipment.status === 'shipped' && canPack ? <DeliverForm version={shipment.version} /> : null}
      {claim ? <StaffClaimPanel claim={claim} canConfirmLoss={canConfirmLoss} answer={plainAnswer} /> : null}
      {shipment.status === 'requested' && canPack ? (
        <PackShipmentForm
          shipment={shipment}
          methodLabel={t(`staffShipments.methods.${shipment.method}`)}
          lastResult={formAnswer?.intent === 'pack' ? formAnswer.result : undefined}
          preview={
            formAnswer?.intent === 'pack' && 'preview' in formAnswer
              ? ((formAnswer.preview as PackPreview | null | undefined) ?? null)
              : null
          }
        />
      ) : null}
      {shipment.status === 'requested' || shipment.status === 'packed' ? (
        <CancelShipmentForm shipment={shipment} receipt={costs.receipt} errors={cancelErrors} />
      ) : null}
      <ShipmentHistory events={shipment.events} />
      <ConversationThread
        prefix="staffConversation"
        messages={conversation.messages}
        action={`/admin-dashboard/shipments/${shipment.id}/messages`}
        fileHref={(id) => `/user-dashboard/message-files/${id}`}
      >
        <StaffConversationStatus
          thread={conversation}
          viewerId={viewerId}
          back={`/admin-dashboard/shipments/${shipment.id}#conversation`}
        />
      </ConversationThread>
    </article>
  )
}

type ActionData = Route.ComponentProps['actionData']

/** The answer of a form that keeps what was typed (`result`): packing, re-issuing, payments. */
function formAnswerOf(answer: ActionData) {
  return answer && 'result' in answer ? answer : null
}
