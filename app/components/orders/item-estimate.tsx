import { useTranslation } from 'react-i18next'
import { ResultList } from '#app/components/calculator/result-list.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import type { HomeImportRules } from '#app/lib/import-estimate.server.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { importEstimateFor } from '#core/landed-cost/landed-cost.ts'
import { convertFromYen, formatMoney, formatPercent } from '#core/money/money.ts'
import { MAX_ITEM_PRICE_JPY, parseItemCount, parseItemPrice, quotePurchase } from '#core/pricing/pricing.ts'
import { LinkPreviewCard, usePriceFromLink } from './link-preview-card.tsx'

/**
 * On the request form, beside an item: "the price you see" in yen, and what that many of it would
 * cost with our fee and tax, priced in the browser by the same code as /calculator
 * (core/pricing) with the settings the page came with. Only an estimate for the customer: the
 * price field has no name, so it is never sent (the server prices a request when staff quote
 * it). Shown only once JavaScript runs; without it there is nothing to fill in.
 *
 * When the link's shop page can be read (issue 31), the item shows above the price, and its
 * price (an auction's current price) fills the field until the customer types their own.
 */
export function ItemEstimate({
  id,
  quantity,
  url,
  landed = null,
}: {
  id: string
  quantity: string | undefined
  url?: string | undefined
  /** The customer's home country's import rule (app/lib/import-estimate.server.ts); null: none. */
  landed?: HomeImportRules | null
}) {
  const { t } = useTranslation()
  const root = useRootData()
  const { preview, price, type } = usePriceFromLink(url, root?.settings.previewHosts)
  if (!root) return null
  const { language, currency, settings } = root
  const money = (amount: number) => formatMoney(amount, 'JPY', language)
  const parsed = parseItemPrice(price)
  // An empty quantity is 1, as the form sends it; a wrong one has its own message on its field.
  const count = parseItemCount(quantity?.trim() ? quantity : '1')
  const quote =
    parsed.ok && parsed.value !== null && count.ok ? quotePurchase(parsed.value, settings, count.value) : null
  // Taxes at the door on the goods alone: the international shipping is not known yet.
  const atDoor =
    quote && landed
      ? importEstimateFor(landed.rules, landed.country, {
          goodsJpy: quote.productCost,
          shippingJpy: null,
          categories: 1,
          rates: landed.rates,
        }).estimate
      : null
  const local = quote && currency !== 'JPY' ? convertFromYen(quote.total, currency, settings.yenRates) : null
  const error = parsed.ok
    ? null
    : t(`requests.estimate.errors.${parsed.error}`, { max: money(MAX_ITEM_PRICE_JPY) })

  return (
    <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3">
      <div aria-live="polite">{preview ? <LinkPreviewCard preview={preview} /> : null}</div>
      <FormField
        id={id}
        label={t('requests.estimate.price')}
        hint={t('requests.estimate.hint')}
        error={error}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={32}
            value={price}
            onChange={(event) => type(event.currentTarget.value)}
            className={`${inputClass} sm:max-w-48`}
          />
        )}
      </FormField>
      {quote && count.ok ? (
        <ResultList
          rows={[
            {
              label: t('requests.estimate.products', { quantity: count.value }),
              value: money(quote.productCost),
            },
            { label: t('requests.estimate.serviceFee'), value: money(quote.serviceFee) },
            {
              label: t('requests.estimate.tax', { rate: formatPercent(settings.taxRate, language) }),
              value: money(quote.tax),
            },
            ...(atDoor?.kind === 'estimate' && landed
              ? [
                  {
                    label: t('linkPreview.atDoor', { country: landed.countryLabel }),
                    value: money(atDoor.importJpy),
                  },
                ]
              : []),
          ]}
        />
      ) : null}
      <p aria-live="polite" className="font-semibold text-slate-900">
        {quote
          ? local === null
            ? t('requests.estimate.total', { total: money(quote.total) })
            : t('requests.estimate.totalWithLocal', {
                total: money(quote.total),
                local: formatMoney(local, currency, language),
              })
          : ''}
      </p>
      <p className="text-xs text-slate-700">{t('requests.estimate.note')}</p>
    </div>
  )
}
