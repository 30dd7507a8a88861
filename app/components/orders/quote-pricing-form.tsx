import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { previewImagePath } from '#core/link-preview/preview-path.ts'
import type { ShownPreview } from '#core/link-preview/preview-service.ts'
import { parseYen } from '#core/money/parse-yen.ts'
import { QUOTE_LIMITS, type SaveQuoteDraftInput, SaveQuoteDraftSchema } from '#core/orders/quote-schemas.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { priceQuote, type QuotePricing, type QuoteTotals } from '#core/pricing/quote-pricing.ts'
import { LinkPreviewCard } from './link-preview-card.tsx'
import { QuoteTotalsList } from './quote-totals.tsx'
import { RequestItems } from './request-items.tsx'

/**
 * Staff price a request on its page: per item a title, a yen price and the shop's delivery to our
 * office, in one form (Conform + the service's schema; works without JavaScript), with the totals
 * of what was saved, priced by the same engine as the invoice. With JavaScript the totals follow
 * what is typed before it is saved.
 */

export type PricingItem = {
  id: string
  position: number
  url: string
  shopHost: string
  storeName: string | null
  quantity: number
  notes: string | null
  title: string | null
  unitPriceJpy: number | null
  domesticShippingJpy: number | null
  /** The customer's photo of the item, when they sent one. */
  photo?: { id: string; width: number; height: number } | null
  /** What the link's shop page said (issue 31): prefills the title and prices, still editable. */
  preview?: ShownPreview | null
}

type PricingFields = {
  id: string
  version: string
  items: { id: string; title: string; unitPrice: string; domesticShipping: string }[]
}

const yenText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value)

const asYen = (value: unknown, { min, max }: { min: number; max: number }) => {
  if (typeof value !== 'string' || value.trim() === '') return null
  const parsed = parseYen(value)
  return parsed.ok && parsed.value >= min && parsed.value <= max ? parsed.value : null
}

export function QuotePricingForm({
  requestId,
  version,
  items,
  pricing,
  savedTotals,
  lastResult,
  language,
  rateLabel,
}: {
  requestId: string
  version: number
  items: readonly PricingItem[]
  pricing: QuotePricing
  savedTotals: QuoteTotals
  lastResult: SubmissionResult<string[]> | undefined
  language: Language
  rateLabel: string
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm<PricingFields, SaveQuoteDraftInput>({
    id: 'quote-pricing',
    lastResult,
    defaultValue: {
      id: requestId,
      items: items.map((item) => ({
        id: item.id,
        title: item.title ?? item.preview?.title?.slice(0, QUOTE_LIMITS.title) ?? '',
        unitPrice: yenText(
          item.unitPriceJpy ?? item.preview?.auction?.currentPriceYen ?? item.preview?.priceYen,
        ),
        domesticShipping: yenText(item.domesticShippingJpy ?? item.preview?.domesticShippingYen),
      })),
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: SaveQuoteDraftSchema }),
  })
  const rows = fields.items.getFieldList()
  const formError = errorText(t, form.errors?.[0])

  // The totals of what is typed, once the page runs JavaScript.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const { lines: _, ...typedTotals } = priceTyped(rows, items, pricing)
  const changed = hydrated && JSON.stringify(typedTotals) !== JSON.stringify(savedTotals)

  return (
    <>
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <input type="hidden" name="intent" value="price" />
        <input type="hidden" name="id" value={requestId} />
        <input type="hidden" name="version" value={version} />
        <FormAlert id={form.errorId}>{formError}</FormAlert>
        <PricingItems requestId={requestId} items={items} rows={rows} />
        <section aria-labelledby="totals-heading" className="space-y-2">
          <h3 id="totals-heading" className="text-lg font-semibold text-slate-900">
            {t('quote.totalsHeading')}
          </h3>
          <QuoteTotalsList totals={savedTotals} rateLabel={rateLabel} language={language} />
          <div aria-live="polite">
            {changed ? (
              <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3">
                <p className="font-semibold text-slate-900">{t('quote.totalsLive')}</p>
                <QuoteTotalsList totals={typedTotals} rateLabel={rateLabel} language={language} />
              </div>
            ) : null}
          </div>
        </section>
        {/* "Approve" further down submits this form too, with its own intent (ADR 038). */}
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('quote.save')}
        </button>
      </Form>
      {/* "Read the page again" buttons inside the form above post these (form="read-link-…"). */}
      {items
        .filter((item) => item.preview)
        .map((item) => (
          <Form key={item.id} method="post" id={`read-link-${item.id}`} hidden>
            <input type="hidden" name="intent" value="read_link" />
            <input type="hidden" name="itemId" value={item.id} />
          </Form>
        ))}
    </>
  )
}

/** One item's fields in the pricing form, as Conform gives them. */
type PricingRow = FieldMetadata<PricingFields['items'][number], PricingFields>

/** The quote of what is typed: the items with a valid price, priced by the invoice's engine. */
function priceTyped(rows: readonly PricingRow[], items: readonly PricingItem[], pricing: QuotePricing) {
  return priceQuote(
    rows.flatMap((row, index) => {
      const item = items[index]
      const fieldset = row.getFieldset()
      const unitPriceJpy = asYen(fieldset.unitPrice.value, QUOTE_LIMITS.unitPriceJpy)
      if (!item || unitPriceJpy === null) return []
      return [
        {
          itemId: item.id,
          position: item.position,
          title: String(fieldset.title.value ?? ''),
          quantity: item.quantity,
          unitPriceJpy,
          domesticShippingJpy: asYen(fieldset.domesticShipping.value, QUOTE_LIMITS.domesticShippingJpy) ?? 0,
        },
      ]
    }),
    pricing,
  )
}

/** The request's items, each with the customer's photo and its pricing fields. */
function PricingItems({
  requestId,
  items,
  rows,
}: {
  requestId: string
  items: readonly PricingItem[]
  rows: readonly PricingRow[]
}) {
  const { t } = useTranslation()
  return (
    <RequestItems
      heading={t('queue.itemsHeading')}
      items={items}
      linkLabel={(item) => t('queue.openLink', { host: item.shopHost })}
      photo={(item) =>
        item.photo
          ? {
              src: `/admin-dashboard/requests/${requestId}/photos/${item.photo.id}`,
              alt: t('queue.photoAlt', { number: item.position }),
              width: item.photo.width,
              height: item.photo.height,
            }
          : null
      }
      details={(item) => {
        const index = items.indexOf(item)
        const row = rows[index]
        if (!row) return null
        return <PricingItemFields item={item} row={row} />
      }}
    />
  )
}

/** What the customer asked for an item, then its title, unit price and the shop's delivery. */
function PricingItemFields({ item, row }: { item: PricingItem; row: PricingRow }) {
  const { t } = useTranslation()
  const fieldErrorText = (errors: string[] | undefined) => errorTextIn(t, 'quote.errors', errors?.[0])
  const field = row.getFieldset()
  return (
    <>
      <ItemFacts item={item} />
      {item.preview ? <StaffPreview itemId={item.id} preview={item.preview} /> : null}
      <fieldset className="mt-3 space-y-3">
        <legend className="font-semibold text-slate-900">
          {t('quote.itemLegend', {
            number: item.position,
            host: item.shopHost,
            quantity: item.quantity,
          })}
        </legend>
        <input {...getInputProps(field.id, { type: 'hidden' })} />
        <FormField
          id={field.title.id}
          label={t('quote.title')}
          hint={t('quote.titleHint')}
          error={fieldErrorText(field.title.errors)}
        >
          {(control) => (
            <input
              {...getInputProps(field.title, { type: 'text', ariaAttributes: false })}
              {...control}
              maxLength={QUOTE_LIMITS.title}
              autoComplete="off"
              className={inputClass}
            />
          )}
        </FormField>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField
            id={field.unitPrice.id}
            label={t('quote.unitPrice')}
            hint={t('quote.unitPriceHint')}
            error={fieldErrorText(field.unitPrice.errors)}
          >
            {(control) => (
              <input
                {...getInputProps(field.unitPrice, { type: 'text', ariaAttributes: false })}
                {...control}
                inputMode="numeric"
                autoComplete="off"
                className={inputClass}
              />
            )}
          </FormField>
          <FormField
            id={field.domesticShipping.id}
            label={t('quote.domesticShipping')}
            hint={t('quote.domesticShippingHint')}
            error={fieldErrorText(field.domesticShipping.errors)}
          >
            {(control) => (
              <input
                {...getInputProps(field.domesticShipping, { type: 'text', ariaAttributes: false })}
                {...control}
                inputMode="numeric"
                autoComplete="off"
                className={inputClass}
              />
            )}
          </FormField>
        </div>
      </fieldset>
    </>
  )
}

/** The item as its shop's page said when it was read, and "read again" (issue 31). */
function StaffPreview({ itemId, preview }: { itemId: string; preview: ShownPreview }) {
  const { t, i18n } = useTranslation()
  const time = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'es', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Asia/Tokyo',
  }).format(new Date(preview.readAt))
  return (
    <div className="mt-3">
      <LinkPreviewCard
        preview={{ ...preview, imageUrl: previewImagePath(preview.imageUrl) }}
        note={t('linkPreview.readAt', { host: preview.host, time })}
        action={
          <button
            type="submit"
            form={`read-link-${itemId}`}
            className="min-h-11 rounded-md border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50"
          >
            {t('linkPreview.readAgain')}
          </button>
        }
      />
    </div>
  )
}

/** What the customer asked for an item: the store, the quantity, their notes. */
/** Item statuses after payment: where each item is, for staff. */
const ITEM_PROGRESS = ['to_buy', 'ordered', 'received', 'unavailable', 'shipped', 'disposed'] as const

export function ItemFacts({
  item,
}: {
  item: Pick<PricingItem, 'storeName' | 'quantity' | 'notes'> & { status?: string }
}) {
  const { t } = useTranslation()
  const progress = ITEM_PROGRESS.find((status) => status === item.status)
  return (
    <>
      {progress ? (
        <p className="font-semibold text-slate-900" data-testid="item-status">
          {t(`queue.itemStatus.${progress}`)}
        </p>
      ) : null}
      {item.storeName ? (
        <p className="text-sm text-slate-700">{t('queue.store', { name: item.storeName })}</p>
      ) : null}
      <p className="mt-1 text-slate-800">
        {t('queue.quantity')}: {item.quantity}
      </p>
      {item.notes ? (
        <p className="mt-1 whitespace-pre-line text-slate-800">
          {t('queue.notes')}: {item.notes}
        </p>
      ) : null}
    </>
  )
}
