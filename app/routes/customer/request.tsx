import { getFormProps, useForm } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { ConversationThread } from '#app/components/conversations/conversation-thread.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { ImportEstimate } from '#app/components/landed-cost/import-estimate.tsx'
import { lineDescription } from '#app/components/orders/document-parts.tsx'
import { InvoiceList } from '#app/components/orders/invoice-list.tsx'
import { PaymentPanel } from '#app/components/orders/payment-panel.tsx'
import { type ReceiptInvoice, receiptForPage } from '#app/components/orders/receipt.tsx'
import { RefundList, refundsForPage } from '#app/components/orders/refund-list.tsx'
import { RequestItems } from '#app/components/orders/request-items.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import { YenAmount } from '#app/components/orders/yen-amount.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { conversationForPage } from '#app/lib/conversation-views.server.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { type QuoteImportEstimate, quoteImportEstimate } from '#app/lib/import-estimate.server.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext, getServiceContext } from '#app/middleware/auth.server.ts'
import { getInvoice, listRequestInvoices } from '#core/billing/invoice-service.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import { CANCEL_REASON_MAX, CancelRequestSchema } from '#core/orders/request-schemas.ts'
import { cancelRequest, getRequest } from '#core/orders/request-service.ts'
import { refundsOfInvoices } from '#core/payments/money-history.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import type { Route } from './+types/request.ts'
import {
  loadPaymentPanel,
  payAction,
  payFromBalanceAction,
  readPaymentForm,
  reportTransferAction,
} from './request-payment.server.ts'

// One of the customer's requests: its quote (lines and totals, due date, the slot where the
// payments slice puts the way to pay), its items, its history, its invoices with their receipts,
// and "cancel" while that is possible.

/** Item statuses after payment, which the customer sees on each item. */
const ITEM_PROGRESS = ['to_buy', 'ordered', 'received', 'unavailable', 'shipped', 'disposed'] as const

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const services = getServiceContext(context)
  const detail = await getRequest(services, params.id)
  const invoices = await listRequestInvoices(services, detail.id)
  const open = invoices.find((invoice) => invoice.status === 'open')
  const { language, currency } = context.get(requestContext)
  const quote = open ? await getInvoice(services, open.id) : null
  // What the quoted items would cost at the door in the customer's country (issue 30).
  const landed = quote ? await quoteImportEstimate(context, services, quote) : null
  const payment = await loadPaymentPanel(
    context,
    { kind: 'request', id: detail.id },
    new URL(request.url).searchParams,
  )
  // What goes back on its payments (getRequest has answered who may see them).
  const refunds = await refundsOfInvoices(
    services.db,
    invoices.map((invoice) => invoice.id),
  )
  const format = japanDateTime(language)
  // The conversation with the team (docs/decisions/048): shown, and so read.
  const conversation = await conversationForPage(context, { kind: 'request', id: detail.id })
  return {
    conversation,
    language,
    currency,
    // The open quote (what there is to pay), and every invoice of the request with its receipt.
    quote: quote ? receiptForPage(quote, language) : null,
    landed,
    payment,
    refunds: refundsForPage(refunds, language),
    invoices: invoices.map((invoice) => ({ ...invoice, issuedLabel: format(invoice.issuedAt) })),
    request: {
      ...detail,
      submittedLabel: format(detail.submittedAt),
      events: detail.events.map((event) => ({ ...event, createdLabel: format(event.createdAt) })),
    },
  }
}

/**
 * Cancel, with the version the page showed: a second click finds it changed (409); pay; say "I
 * have paid" by bank transfer (multipart, with its proof).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { formData, problem } = await readPaymentForm(request)
  if (formData.get('intent') === 'pay')
    return payAction(formData, context, { kind: 'request', id: params.id })
  if (formData.get('intent') === 'pay_balance')
    return payFromBalanceAction(formData, context, { kind: 'request', id: params.id })
  if (formData.get('intent') === 'report_transfer' || problem === 'tooLarge') {
    return reportTransferAction(formData, context, { kind: 'request', id: params.id }, problem)
  }
  formData.set('id', params.id)
  const submission = parseSubmission(formData, { schema: CancelRequestSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await cancelRequest(getOrderContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, `/user-dashboard/requests/${params.id}`, 'requestCancelled')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyRequestRoute() {
  const { t } = useTranslation()
  const { request, quote, landed, invoices, language, currency, payment, refunds, conversation } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const paying = actionData && 'payment' in actionData ? actionData.payment : null
  const reporting =
    actionData && 'intent' in actionData && actionData.intent === 'report_transfer' && 'result' in actionData
      ? actionData.result
      : null
  const paymentPanel = (variant: 'in-quote' | 'standalone') => (
    <PaymentPanel
      variant={variant}
      panel={payment}
      checkout={paying?.checkout ?? null}
      formError={errorText(t, paying?.error)}
      receiptHref={payment.invoice ? `/user-dashboard/invoices/${payment.invoice.id}` : null}
      reportResult={reporting}
    />
  )
  const title = t('requests.detailTitle', { number: request.number })
  return (
    <article aria-labelledby="request-heading" className="space-y-8">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/user-dashboard/requests" className="font-semibold text-red-800 underline">
          {t('requests.back')}
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="request-heading" className="text-3xl font-bold text-slate-900">
          {title}
        </h1>
        <StatusBadge status={request.status} label={t(`requests.status.${request.status}`)} />
      </header>
      <p className="text-slate-700">
        {t('requests.submittedAt')}: {request.submittedLabel} ({t('requests.japanTime')})
      </p>
      {request.customerNote ? (
        <section aria-labelledby="note-heading">
          <h2 id="note-heading" className="text-xl font-semibold text-slate-900">
            {t('requests.yourNote')}
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-800">{request.customerNote}</p>
        </section>
      ) : null}
      {quote ? (
        <QuotePanel quote={quote} landed={landed} language={language} currency={currency}>
          {paymentPanel('in-quote')}
        </QuotePanel>
      ) : null}
      {!quote && payment.invoice?.status === 'paid' ? paymentPanel('standalone') : null}
      {request.status === 'submitted' && invoices.some((invoice) => invoice.status === 'void') ? (
        <p className="rounded-md bg-sky-50 p-3 text-sky-950">{t('requests.quote.revising')}</p>
      ) : null}
      {request.status === 'completed' ? (
        <p
          className="rounded-md bg-emerald-50 p-3 font-medium text-emerald-900"
          data-testid="request-completed"
        >
          {t('requests.completedNotice')}
        </p>
      ) : null}
      {request.status === 'expired' ? (
        <p className="rounded-md bg-slate-100 p-3 text-slate-900">{t('requests.quote.expired')}</p>
      ) : null}
      <MyRequestItems requestId={request.id} items={request.items} />
      <RefundList refunds={refunds} headingId="refunds-heading" />
      <MyRequestTimeline events={request.events} />
      <InvoiceList
        heading={t('requests.quote.receipts')}
        invoices={invoices}
        hrefOf={(id) => `/user-dashboard/invoices/${id}`}
        language={language}
      />
      <ConversationThread
        prefix="conversation"
        messages={conversation.messages}
        action={`/user-dashboard/requests/${request.id}/messages`}
        fileHref={(id) => `/user-dashboard/message-files/${id}`}
      />
      {/* While a transfer the customer reported is checked, they cannot cancel (ADR 036). */}
      {request.actions.includes('cancel') && !payment.transferReported ? (
        <CancelForm version={request.version} />
      ) : null}
    </article>
  )
}

type RequestData = ReturnType<typeof useLoaderData<typeof loader>>['request']

/** The request's items, each with its photo, quantity, notes and, once paid, where it is. */
function MyRequestItems({ requestId, items }: { requestId: string; items: RequestData['items'] }) {
  const { t } = useTranslation()
  return (
    <RequestItems
      heading={t('requests.itemsHeading')}
      items={items}
      linkLabel={(item) =>
        item.title
          ? t('requests.openItem', { title: item.title })
          : t('requests.openLink', { host: item.storeName ?? item.shopHost })
      }
      photo={(item) =>
        item.photo
          ? {
              src: `/user-dashboard/requests/${requestId}/photos/${item.photo.id}`,
              alt: t('requests.photoAlt', { number: item.position }),
              width: item.photo.width,
              height: item.photo.height,
            }
          : null
      }
      details={(item) => (
        <>
          <p className="mt-1 text-slate-800">{t('requests.quantityValue', { quantity: item.quantity })}</p>
          {item.notes ? <p className="mt-1 whitespace-pre-line text-slate-800">{item.notes}</p> : null}
          {ITEM_PROGRESS.includes(item.status as (typeof ITEM_PROGRESS)[number]) ? (
            <p className="mt-1 font-medium text-slate-900" data-testid="item-status">
              {t(`requests.itemStatus.${item.status as (typeof ITEM_PROGRESS)[number]}`)}
              {item.status === 'received' ? (
                <>
                  {' · '}
                  <Link to="/user-dashboard/shipping" className="text-red-800 underline">
                    {t('requests.seeShipping')}
                  </Link>
                </>
              ) : null}
            </p>
          ) : null}
        </>
      )}
    />
  )
}

/** The request's history, each event with the note it came with. */
function MyRequestTimeline({ events }: { events: RequestData['events'] }) {
  const { t } = useTranslation()
  return (
    <RequestTimeline
      headingId="timeline-heading"
      heading={t('requests.timeline')}
      events={events}
      eventLabel={(event) => t(`requests.events.${event.event as 'submit'}`)}
      detail={(event) => (
        <>
          {event.createdLabel}
          {event.note ? (
            <span className="mt-1 block whitespace-pre-line rounded-md bg-slate-50 p-2 text-base text-slate-900">
              {event.note}
            </span>
          ) : null}
        </>
      )}
    />
  )
}

function CancelForm({ version }: { version: number }) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm({
    id: 'cancel-request',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
  })
  const reasonError = fields.reason?.errors?.[0]
  const formError = errorText(t, form.errors?.[0])
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <p className="text-sm text-slate-700">{t('requests.cancelHint')}</p>
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <input type="hidden" name="version" value={version} />
      <FormField
        id="cancel-reason"
        label={t('requests.cancelReason')}
        hint={t('requests.cancelReasonHint')}
        error={errorTextIn(t, 'requests.errors', reasonError)}
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
      <button
        type="submit"
        className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
      >
        {t('requests.cancel')}
      </button>
    </Form>
  )
}

/** The open quote: its lines and totals in yen (and in the visitor's currency), the due date, the way to pay. */
function QuotePanel({
  quote,
  landed,
  language,
  currency,
  children,
}: {
  quote: ReceiptInvoice
  /** Its import estimate for the customer's country (issue 30); null: none asked. */
  landed: QuoteImportEstimate | null
  language: Language
  currency: Currency
  /** The way to pay (app/components/orders/payment-panel.tsx). */
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const rate = formatPercent(quote.taxRateBasisPoints / 10_000, language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return (
    <section aria-labelledby="quote-heading" className="space-y-4 rounded-lg border-2 border-sky-200 p-4">
      <h2 id="quote-heading" className="text-2xl font-bold text-slate-900">
        {t('requests.quote.heading')}
      </h2>
      <p className="text-slate-700">{t('requests.quote.lead')}</p>
      <p className="font-medium text-slate-900">{t('requests.quote.invoice', { number: quote.number })}</p>
      <h3 className="text-lg font-semibold text-slate-900">{t('requests.quote.lines')}</h3>
      <ul className="divide-y divide-slate-200">
        {quote.lines.map((line) => (
          <li key={line.position} className="flex flex-wrap justify-between gap-x-4 py-2">
            <span className="min-w-0 break-words text-slate-900">
              {lineDescription(t, line)}{' '}
              <span className="text-sm text-slate-700">
                ({t('receipt.quantityTimes', { quantity: line.quantity, price: yen(line.unitPriceJpy) })})
              </span>
            </span>
            <span className="tabular-nums text-slate-900">{yen(line.amountJpy)}</span>
          </li>
        ))}
      </ul>
      <dl className="ml-auto max-w-md space-y-1">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('receipt.taxableSubtotal', { rate })}</dt>
          <dd className="tabular-nums">{yen(quote.taxableJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('receipt.tax', { rate })}</dt>
          <dd className="tabular-nums">{yen(quote.taxJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('receipt.notTaxableSubtotal')}</dt>
          <dd className="tabular-nums">{yen(quote.domesticShippingJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t-2 border-slate-300 pt-2 text-lg font-bold">
          <dt>{t('requests.quote.total')}</dt>
          <dd data-testid="quote-total">
            <YenAmount
              amountJpy={quote.totalJpy}
              currency={currency}
              language={language}
              rates={quote.yenRates}
            />
          </dd>
        </div>
      </dl>
      {currency === 'JPY' ? null : (
        <p className="text-sm text-slate-700">{t('requests.quote.otherCurrency', { currency })}</p>
      )}
      {landed ? (
        <QuoteImportPanel landed={landed} quote={quote} language={language} currency={currency} />
      ) : null}
      <p className="font-medium text-slate-900">{t('requests.quote.due', { date: quote.dueLabel })}</p>
      {children}
      <p>
        <Link to={`/user-dashboard/invoices/${quote.id}`} className="font-semibold text-red-800 underline">
          {t('requests.quote.seeReceipt', { number: quote.number })}
        </Link>
      </p>
    </section>
  )
}

/** The quote's import estimate for the customer's country, or where to add an address to see it. */
function QuoteImportPanel({
  landed,
  quote,
  language,
  currency,
}: {
  landed: QuoteImportEstimate
  quote: ReceiptInvoice
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  if (landed.kind === 'noAddress') {
    return (
      <p className="rounded-md bg-slate-50 p-3 text-slate-800" data-testid="import-estimate-no-address">
        {t('landedCustomer.noAddress')}{' '}
        <Link to="/user-dashboard/profile/addresses/new" className="font-semibold text-red-800 underline">
          {t('landedCustomer.addAddress')}
        </Link>
      </p>
    )
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">
        {t('landedCustomer.quoteLead')} {t('landedCustomer.forCountry', { country: landed.countryLabel })}
      </p>
      <ImportEstimate
        frozen={landed.frozen}
        paidJpy={landed.paidJpy}
        currency={currency}
        rates={quote.yenRates}
        language={language}
        id="quote-import"
      />
    </div>
  )
}
