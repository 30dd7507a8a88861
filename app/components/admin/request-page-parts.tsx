import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { ItemFacts, QuotePricingForm } from '#app/components/orders/quote-pricing-form.tsx'
import { RequestItems } from '#app/components/orders/request-items.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import {
  ApproveForm,
  CancelRequestForm,
  NoteForm,
  RejectForm,
  ReviseForm,
} from '#app/components/orders/staff-request-actions.tsx'
import type { loader } from '#app/routes/admin/request.tsx'
import { formatMoney } from '#core/money/money.ts'

// The parts of the staff's request page (app/routes/admin/request.tsx): the customer, the prices,
// the staff's forms and the history.

type PageData = Awaited<ReturnType<typeof loader>>
type RequestData = PageData['request']
/** A form's last answer from the action, for the form that was sent (none after a conflict). */
type LastResult = SubmissionResult<string[]> | undefined

/** Who asked: name, e-mail, language and their note. */
export function RequestCustomer({
  request,
}: {
  request: Pick<RequestData, 'customer' | 'locale' | 'customerNote'>
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="customer-heading">
      <h2 id="customer-heading" className="text-xl font-semibold text-slate-900">
        {t('queue.customerHeading')}
      </h2>
      <p className="mt-2 text-slate-900">{request.customer?.name}</p>
      <p className="break-all text-slate-700">
        <a href={`mailto:${request.customer?.email ?? ''}`} className="underline">
          {request.customer?.email}
        </a>
      </p>
      <p className="text-slate-700">{t('queue.language', { language: request.locale.toUpperCase() })}</p>
      {request.customerNote ? (
        <div className="mt-3">
          <h3 className="font-semibold text-slate-900">{t('queue.customerNote')}</h3>
          <p className="whitespace-pre-line text-slate-800">{request.customerNote}</p>
        </div>
      ) : null}
    </section>
  )
}

/** The items' prices: the pricing form while staff may price, else the items as priced. */
export function RequestPricing({
  request,
  items,
  draft,
  canPrice,
  lastResult,
  language,
  rateLabel,
  feeLabel,
}: {
  request: Pick<RequestData, 'id' | 'version' | 'status'>
  items: PageData['items']
  draft: PageData['draft']
  canPrice: boolean
  lastResult: LastResult
  language: PageData['language']
  rateLabel: string
  feeLabel: string
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="pricing-heading" className="space-y-4">
      <h2 id="pricing-heading" className="text-xl font-semibold text-slate-900">
        {t('quote.pricingHeading')}
      </h2>
      {canPrice ? (
        <>
          <p className="max-w-3xl text-slate-700">
            {t('quote.pricingLead', { fee: feeLabel, rate: rateLabel })}
          </p>
          <QuotePricingForm
            key={request.version}
            requestId={request.id}
            version={request.version}
            items={items}
            pricing={draft.pricing}
            savedTotals={draft.totals}
            lastResult={lastResult}
            language={language}
            rateLabel={rateLabel}
          />
        </>
      ) : (
        <>
          {request.status === 'quoted' ? <p className="text-slate-700">{t('quote.pricesFixed')}</p> : null}
          <RequestItems
            heading={t('queue.itemsHeading')}
            items={items}
            linkLabel={(item) =>
              item.title
                ? t('queue.openItem', { title: item.title })
                : t('queue.openLink', { host: item.shopHost })
            }
            photo={(item) =>
              item.photo
                ? {
                    src: `/admin-dashboard/requests/${request.id}/photos/${item.photo.id}`,
                    alt: t('queue.photoAlt', { number: item.position }),
                    width: item.photo.width,
                    height: item.photo.height,
                  }
                : null
            }
            details={(item) => (
              <>
                <ItemFacts item={item} />
                {item.unitPriceJpy !== null ? (
                  <p className="mt-1 text-slate-900">
                    {item.title} · {formatMoney(item.unitPriceJpy, 'JPY', language)}
                    {item.domesticShippingJpy
                      ? ` + ${t('quote.shippingTotal')}: ${formatMoney(item.domesticShippingJpy, 'JPY', language)}`
                      : ''}
                  </p>
                ) : null}
              </>
            )}
          />
        </>
      )}
    </section>
  )
}

/** The staff's forms this member may use now: approve, revise, reject, cancel, note. */
export function RequestActionForms({
  request,
  draft,
  may,
  openInvoiceNumber,
  resultFor,
}: {
  request: Pick<RequestData, 'id' | 'version'>
  draft: PageData['draft']
  may: PageData['may']
  openInvoiceNumber: string | null
  resultFor: (intent: 'approve' | 'revise' | 'reject' | 'cancel' | 'note') => LastResult
}) {
  if (!(may.approve || may.reject || may.revise || may.note || may.cancel)) return null
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {may.approve ? (
        <ApproveForm
          key={`approve-${request.version}`}
          requestId={request.id}
          version={request.version}
          lastResult={resultFor('approve')}
          daysToPay={draft.pricing.daysToPay}
          complete={draft.complete}
          withPricingForm={may.price}
          unpriced={draft.items.filter((item) => item.unitPriceJpy === null || !item.title).length}
        />
      ) : null}
      {may.revise && openInvoiceNumber ? (
        <ReviseForm
          key={`revise-${request.version}`}
          requestId={request.id}
          version={request.version}
          lastResult={resultFor('revise')}
          invoiceNumber={openInvoiceNumber}
        />
      ) : null}
      {may.reject ? (
        <RejectForm
          key={`reject-${request.version}`}
          requestId={request.id}
          version={request.version}
          lastResult={resultFor('reject')}
        />
      ) : null}
      {may.cancel ? (
        <CancelRequestForm
          key={`cancel-${request.version}`}
          requestId={request.id}
          version={request.version}
          lastResult={resultFor('cancel')}
        />
      ) : null}
      {may.note ? (
        <NoteForm
          key={`note-${request.version}`}
          requestId={request.id}
          version={request.version}
          lastResult={resultFor('note')}
        />
      ) : null}
    </div>
  )
}

/** The request's whole history, internal notes marked. */
export function RequestHistory({ events }: { events: RequestData['events'] }) {
  const { t } = useTranslation()
  return (
    <RequestTimeline
      headingId="history-heading"
      heading={t('queue.history')}
      events={events}
      eventLabel={(event) => t(`queue.events.${event.event as 'submit'}`)}
      detail={(event) => (
        <>
          ({t(`queue.actor.${event.actorKind as 'customer'}`)}) {event.createdLabel}
          {event.quote ? <> · {t('queue.quoteDetail', event.quote)}</> : null}
          {event.event === 'note' ? (
            <span className="ml-1 font-semibold text-slate-900">
              · {event.visibleToCustomer ? t('queue.noteShared') : t('queue.noteInternal')}
            </span>
          ) : null}
          {event.note ? (
            <span
              className={`mt-1 block whitespace-pre-line rounded-md p-2 text-base text-slate-900 ${
                event.visibleToCustomer ? 'bg-slate-50' : 'border border-dashed border-amber-500 bg-amber-50'
              }`}
            >
              {event.note}
            </span>
          ) : null}
        </>
      )}
    />
  )
}
