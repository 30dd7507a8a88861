import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { data, Link, type ShouldRevalidateFunctionArgs, useActionData, useLoaderData } from 'react-router'
import {
  RequestActionForms,
  RequestCustomer,
  RequestHistory,
  RequestPricing,
} from '#app/components/admin/request-page-parts.tsx'
import { StaffConversationStatus } from '#app/components/conversations/assignment.tsx'
import { ConversationThread } from '#app/components/conversations/conversation-thread.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { InvoiceList } from '#app/components/orders/invoice-list.tsx'
import {
  STAFF_PAYMENT_INTENTS,
  StaffPayments,
  staffPaymentsAnswer,
} from '#app/components/orders/staff-payments.tsx'
import { WarehousePanel } from '#app/components/orders/warehouse-panel.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { conversationForPage } from '#app/lib/conversation-views.server.ts'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure, type PublicError } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import type { Notice, NoticeName } from '#app/lib/notice.ts'
import { getOrderContext, getUser } from '#app/middleware/auth.server.ts'
import { listRequestInvoices } from '#core/billing/invoice-service.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import {
  AddNoteSchema,
  RejectRequestSchema,
  RequestVersionSchema,
  SaveQuoteDraftSchema,
} from '#core/orders/quote-schemas.ts'
import {
  addNote,
  approveQuote,
  getQuoteDraft,
  rejectRequest,
  reviseQuote,
  saveQuoteDraft,
} from '#core/orders/quote-service.ts'
import { CancelRequestSchema } from '#core/orders/request-schemas.ts'
import { cancelRequest, getRequest } from '#core/orders/request-service.ts'
import { can } from '#core/shared/staff-policy.ts'
import { MarkOrderedSchema } from '#core/warehouse/arrival-schemas.ts'
import { markItemsOrdered, packagesOfRequest } from '#core/warehouse/arrival-service.ts'
import { MarkUnavailableSchema, markItemUnavailable } from '#core/warehouse/unavailable-items.ts'
import type { Route } from './+types/request.ts'
import { loadStaffPayments, staffPaymentAction } from './request-payments.server.ts'

// One request for staff (admins and moderators, docs/decisions/021): the customer, the links, the
// prices with the engine's totals, approve / reject / revise, notes, the invoices and the whole
// history (internal notes marked). Each form posts the version the page showed; a request
// changed meanwhile answers "this request has just changed" with the page as it is now.

export async function loader({ params, context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  // getRequest first: it answers not found for a bad or unknown id before anything else reads it.
  const detail = await getRequest(orders, params.id)
  const [draft, invoices, payments, packages] = await Promise.all([
    getQuoteDraft(orders, detail.id),
    listRequestInvoices(orders, detail.id),
    loadStaffPayments(context, { kind: 'request', id: detail.id }),
    packagesOfRequest(orders.db, detail.id),
  ])
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  const status = detail.status
  const openInvoice = invoices.find((invoice) => invoice.status === 'open') ?? null
  const working = status === 'paid' || status === 'in_progress'
  const toBuy = detail.items.filter((item) => item.status === 'to_buy').length
  return {
    // The conversation with the customer (docs/decisions/048): shown, and so read by staff.
    conversation: await conversationForPage(context, { kind: 'request', id: detail.id }),
    viewerId: getUser(context).id,
    language,
    request: {
      ...detail,
      submittedLabel: format(detail.submittedAt),
      events: detail.events.map((event) => ({
        ...event,
        createdLabel: format(event.createdAt),
        quote:
          event.event === 'quote' && typeof event.data.invoiceNumber === 'string'
            ? {
                number: event.data.invoiceNumber,
                total: formatMoney(Number(event.data.totalJpy), 'JPY', language),
              }
            : null,
      })),
    },
    items: detail.items.map((item) => {
      const priced = draft.items.find((candidate) => candidate.id === item.id)
      return {
        ...item,
        title: priced?.title ?? null,
        unitPriceJpy: priced?.unitPriceJpy ?? null,
        domesticShippingJpy: priced?.domesticShippingJpy ?? null,
      }
    }),
    draft,
    rateLabel: formatPercent(draft.pricing.taxRateBasisPoints / 10_000, language),
    feeLabel: formatMoney(draft.pricing.serviceFeeJpy, 'JPY', language),
    invoices: invoices.map((invoice) => ({ ...invoice, issuedLabel: format(invoice.issuedAt) })),
    payments,
    packages: packages.map((pkg) => ({
      ...pkg,
      arrivedLabel: format(pkg.arrivedAt),
      items: pkg.items.map((item) => ({
        id: item.id,
        position: item.position,
        weightLabel: item.weightGrams === null ? '' : formatGrams(item.weightGrams, language),
      })),
    })),
    toBuy,
    unavailableItems: detail.items
      .filter((item) => item.status === 'to_buy' || item.status === 'ordered')
      .map((item) => ({
        id: item.id,
        position: item.position,
        label: `${item.position} (${item.shopHost})`,
      })),
    openInvoiceNumber: openInvoice?.number ?? null,
    // What this staff member may do now: their role's policy and the request's state.
    may: {
      price: status === 'submitted' && can(orders.actor, 'save_quote_draft'),
      approve: status === 'submitted' && can(orders.actor, 'approve_quote'),
      reject: status === 'submitted' && can(orders.actor, 'reject_request'),
      cancel: (status === 'submitted' || status === 'quoted') && can(orders.actor, 'reject_request'),
      revise: status === 'quoted' && can(orders.actor, 'revise_quote'),
      note: can(orders.actor, 'write_note'),
      markOrdered: working && toBuy > 0 && can(orders.actor, 'handle_arrivals'),
      // Money: admins only (the refund it makes due).
      markUnavailable: working && can(orders.actor, 'record_payment'),
      bookArrival:
        working &&
        detail.items.some((item) => item.status === 'to_buy' || item.status === 'ordered') &&
        can(orders.actor, 'handle_arrivals'),
    },
  }
}

const INTENTS = [
  'price',
  'approve',
  'reject',
  'revise',
  'note',
  ...STAFF_PAYMENT_INTENTS,
  'mark_ordered',
  'mark_unavailable',
  'cancel',
  'read_link',
] as const
type Intent = (typeof INTENTS)[number]

/** One of the staff's forms, by its `intent`; then back to the page (post/redirect/get). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  formData.set('id', params.id)
  // The last one: a button of another form (Approve, form="quote-pricing") adds its own.
  const intentValue = formData.getAll('intent').at(-1)
  const intent: Intent = INTENTS.includes(intentValue as Intent) ? (intentValue as Intent) : 'note'
  const orders = getOrderContext(context)
  const back: Back = (notice) => redirectWithNotice(context, `/admin-dashboard/requests/${params.id}`, notice)
  switch (intent) {
    case 'price':
    case 'approve':
    case 'revise':
    case 'reject':
      return quoteIntent(intent, formData, orders, back)
    // Payments (admins only: the service refuses moderators): app/routes/admin/request-payments.server.ts.
    case 'record_payment':
    case 'refund_done':
    case 'refund_provider':
    case 'resolve_held':
    case 'dismiss_transfer':
    case 'refund_balance':
      return staffPaymentAction(intent, formData, context, { kind: 'request', id: params.id })
    case 'mark_ordered':
    case 'mark_unavailable':
    case 'cancel':
    case 'note':
      return orderIntent(intent, formData, orders, back)
    case 'read_link': {
      // Read the item's shop page again (issue 31): kept on the item, or nothing changes.
      const { linkPreview } = context.get(requestContext)
      const read = await linkPreview.readItemAgain(orders.actor, params.id, formData.get('itemId'))
      return back(read ? 'linkReadAgain' : 'linkNotRead')
    }
  }
}

/** Back to the request page with a notice (post/redirect/get). */
type Back = (notice: Notice | NoticeName) => ReturnType<typeof redirectWithNotice>

/** The quote's intents: save the prices, approve (send the quote), revise it, or reject the request. */
function quoteIntent(
  intent: 'price' | 'approve' | 'revise' | 'reject',
  formData: FormData,
  orders: OrderContext,
  back: Back,
) {
  switch (intent) {
    case 'price': {
      const submission = parseSubmission(formData, { schema: SaveQuoteDraftSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return saveQuoteDraft(orders, submission.value).then(
        () => back('quoteSaved'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
    case 'approve': {
      // Approve is a button of the pricing form too: the titles and prices as typed come with
      // it and are saved with the approval (ADR 038); refusals show on that form, values kept.
      const withDraft = formData.has('items[0].id')
      const submission = parseSubmission(formData, {
        schema: withDraft ? SaveQuoteDraftSchema : RequestVersionSchema,
      })
      const answerTo = withDraft ? ('price' as const) : intent
      if (submission.status !== 'success')
        return data({ intent: answerTo, result: submission.reply() }, { status: 400 })
      return approveQuote(orders, submission.value).then(
        (approved) => back({ name: 'quoteApproved', params: { number: approved.invoiceNumber } }),
        (error) => formFailure(error, submission, { intent: answerTo }),
      )
    }
    case 'revise': {
      const submission = parseSubmission(formData, { schema: RequestVersionSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return reviseQuote(orders, submission.value).then(
        () => back('quoteRevised'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
    case 'reject': {
      const submission = parseSubmission(formData, { schema: RejectRequestSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return rejectRequest(orders, submission.value).then(
        () => back('quoteRejected'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
  }
}

/** The order's own intents: items bought or unavailable at the shop, a staff cancellation, a note. */
function orderIntent(
  intent: 'mark_ordered' | 'mark_unavailable' | 'cancel' | 'note',
  formData: FormData,
  orders: OrderContext,
  back: Back,
) {
  switch (intent) {
    case 'mark_ordered': {
      const submission = parseSubmission(formData, { schema: MarkOrderedSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return markItemsOrdered(orders, submission.value).then(
        () => back('itemsOrdered'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
    case 'mark_unavailable': {
      const submission = parseSubmission(formData, { schema: MarkUnavailableSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return markItemUnavailable(orders, submission.value).then(
        () => back('itemUnavailable'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
    // Staff cancel an unpaid request with a reason the customer reads (docs/decisions/037).
    case 'cancel': {
      const submission = parseSubmission(formData, { schema: CancelRequestSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return cancelRequest(orders, submission.value).then(
        () => back('requestCancelledByStaff'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
    case 'note': {
      const submission = parseSubmission(formData, { schema: AddNoteSchema })
      if (submission.status !== 'success')
        return data({ intent, result: submission.reply() }, { status: 400 })
      return addNote(orders, submission.value).then(
        () => back('noteAdded'),
        (error) => formFailure(error, submission, { intent }),
      )
    }
  }
}

/** The reason field's refusal in a form's reply (the "mark unavailable" form), if any. */
function reasonError(result: unknown): string | null {
  const errors = (result as { error?: Record<string, string[] | null> } | undefined)?.error
  return errors?.reason?.[0] ?? null
}

type ActionData = Route.ComponentProps['actionData']

/** The warehouse forms' refusal (mark ordered, mark unavailable) for its panel; none after a conflict. */
function warehouseError(
  t: TFunction,
  actionData: ActionData,
  conflict: boolean,
  failure: PublicError | null,
) {
  return actionData &&
    !conflict &&
    (actionData.intent === 'mark_ordered' || actionData.intent === 'mark_unavailable')
    ? failure
      ? errorText(t, failure.messageKey)
      : errorTextIn(t, 'quote.errors', reasonError(actionData.result))
    : null
}

/** The payment forms' answer (record, refund, resolve, dismiss) for the payments panel; none after a conflict. */
function paymentsAnswer(actionData: ActionData, conflict: boolean) {
  return conflict ? null : staffPaymentsAnswer(actionData)
}

/** A refused form (409: the request changed) still reloads the page's data, to show it as it is now. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffRequestRoute() {
  const { t } = useTranslation()
  const {
    request,
    items,
    draft,
    may,
    invoices,
    payments,
    packages,
    toBuy,
    unavailableItems,
    language,
    rateLabel,
    feeLabel,
    openInvoiceNumber,
    conversation,
    viewerId,
  } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // A conflict shows the page as it is now (fresh forms) with its message on top; any other
  // failure goes back to the form that was sent, with what was typed.
  const failure = actionData && 'error' in actionData ? (actionData.error as PublicError) : null
  const conflict = failure?.code === 'conflict'
  const resultFor = (intent: Intent) =>
    actionData && !conflict && actionData.intent === intent ? actionData.result : undefined
  const title = t('queue.detailTitle', { number: request.number })
  return (
    <article aria-labelledby="request-heading" className="space-y-8">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/admin-dashboard/requests" className="font-semibold text-red-800 underline">
          {t('queue.back')}
        </Link>
      </p>
      {failure && conflict ? (
        <FormAlert tone="warning" look="box">
          {errorText(t, failure.messageKey)}
        </FormAlert>
      ) : null}
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="request-heading" className="text-3xl font-bold text-slate-900">
          {title}
        </h1>
        <StatusBadge status={request.status} label={t(`queue.statuses.${request.status}`)} />
      </header>
      <p className="text-slate-700">
        {t('queue.submittedAt')}: {request.submittedLabel}
      </p>
      <RequestCustomer request={request} />

      <RequestPricing
        request={request}
        items={items}
        draft={draft}
        canPrice={may.price}
        lastResult={resultFor('price')}
        language={language}
        rateLabel={rateLabel}
        feeLabel={feeLabel}
      />

      <RequestActionForms
        request={request}
        draft={draft}
        may={may}
        openInvoiceNumber={openInvoiceNumber}
        resultFor={resultFor}
      />

      <WarehousePanel
        requestId={request.id}
        version={request.version}
        toBuy={toBuy}
        canMarkOrdered={may.markOrdered}
        canBook={may.bookArrival}
        packages={packages}
        unavailable={may.markUnavailable ? unavailableItems : []}
        error={warehouseError(t, actionData, conflict, failure)}
      />

      <StaffPayments payments={payments} answer={paymentsAnswer(actionData, conflict)} />

      <InvoiceList
        heading={t('quote.invoicesHeading')}
        invoices={invoices}
        hrefOf={(id) => `/admin-dashboard/invoices/${id}`}
        language={language}
      />

      <RequestHistory events={request.events} />
      <ConversationThread
        prefix="staffConversation"
        messages={conversation.messages}
        action={`/admin-dashboard/requests/${request.id}/messages`}
        fileHref={(id) => `/user-dashboard/message-files/${id}`}
      >
        <StaffConversationStatus
          thread={conversation}
          viewerId={viewerId}
          back={`/admin-dashboard/requests/${request.id}#conversation`}
        />
      </ConversationThread>
    </article>
  )
}
