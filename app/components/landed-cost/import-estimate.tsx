import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { japanDay } from '#app/lib/dates.ts'
import type { FrozenImportEstimate, RuleWarning } from '#core/landed-cost/landed-cost.ts'
import { convertFromYen, formatMoney, formatPercent, intlLocale, type YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'

/**
 * What a parcel will cost at the customer's door (issue 30, ADR 046): the import estimate of a
 * destination's rule, read the same on the calculator, a quote, the shipping estimate and a
 * receipt. Says who collects it and that it is an estimate; a country without rules says so
 * plainly. Strings: `landed.*` (common). Used inside the calculator's island too (its strings
 * list names `landed`).
 */

/** A threshold or limit in its currency, whole units: "USD 200", "EUR 150". */
export function formatThreshold(amount: number, currency: string, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    maximumFractionDigits: 0,
    useGrouping: 'always',
  }).format(amount)
}

function formatIn(amount: number, currency: string, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: 'always',
  }).format(amount)
}

function Yen({
  amountJpy,
  currency,
  rates,
  language,
}: {
  amountJpy: number
  currency: Currency
  rates: YenRates
  language: Language
}) {
  const { t } = useTranslation()
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-2 tabular-nums">
      <span>{formatMoney(amountJpy, 'JPY', language)}</span>
      {currency === 'JPY' ? null : (
        <span className="text-sm font-normal text-slate-600">
          {t('landed.approx', {
            amount: formatMoney(convertFromYen(amountJpy, currency, rates), currency, language),
          })}
        </span>
      )}
    </span>
  )
}

export type ImportEstimateProps = {
  frozen: FrozenImportEstimate
  /** What the customer pays us for the same parcel (for the total at the door); null: not known. */
  paidJpy: number | null
  currency: Currency
  rates: YenRates
  language: Language
  warnings?: readonly RuleWarning[]
  /** The heading's level where it sits (h2 on a page, h3 inside a card). */
  headingLevel?: 2 | 3
  id?: string
}

export function ImportEstimate({
  frozen,
  paidJpy,
  currency,
  rates,
  language,
  warnings = [],
  headingLevel = 3,
  id = 'import-estimate',
}: ImportEstimateProps) {
  const { t } = useTranslation()
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const { estimate } = frozen
  const day = japanDay(language)
  const percent = (bp: number) => formatPercent(bp / 10_000, language)
  const row = (label: string, amountJpy: number, key: string) => (
    <div key={key} className="flex items-baseline justify-between gap-4 py-1">
      <dt className="text-slate-700">{label}</dt>
      <dd className="text-right font-medium">
        <Yen amountJpy={amountJpy} currency={currency} rates={rates} language={language} />
      </dd>
    </div>
  )
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="import-estimate"
    >
      <Heading id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t('landed.heading')}
      </Heading>
      {estimate.kind === 'noRule' ? (
        <p className="mt-2 text-sm text-slate-700">{t('landed.noRule')}</p>
      ) : estimate.kind === 'formal' ? (
        <p className="mt-2 text-sm text-slate-700">
          {t('landed.formal', {
            limit: formatThreshold(estimate.limit, estimate.currency, language),
            value: formatIn(estimate.customsValue, estimate.currency, language),
          })}
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {t('landed.lead', { collector: t(`landed.collector.${estimate.collectedBy}`) })}
          </p>
          <dl className="mt-3 divide-y divide-slate-100 text-sm">
            <div className="flex items-baseline justify-between gap-4 py-1">
              <dt className="text-slate-700">
                {estimate.shippingCounted ? t('landed.customsValueShipping') : t('landed.customsValue')}
              </dt>
              <dd className="text-right tabular-nums">
                {formatMoney(estimate.customsValueJpy, 'JPY', language)}{' '}
                <span className="text-slate-600">
                  ({formatIn(estimate.customsValue, estimate.currency, language)})
                </span>
              </dd>
            </div>
            {estimate.flat
              ? row(t('landed.dutyFlat', { rate: percent(estimate.dutyBp) }), estimate.dutyJpy, 'duty')
              : estimate.dutyBp > 0
                ? row(t('landed.duty', { rate: percent(estimate.dutyBp) }), estimate.dutyJpy, 'duty')
                : null}
            {estimate.vatBp > 0
              ? row(
                  t('landed.vat', { tax: estimate.taxName, rate: percent(estimate.vatBp) }),
                  estimate.vatJpy,
                  'vat',
                )
              : null}
            {estimate.feesJpy > 0 ? row(t('landed.fees'), estimate.feesJpy, 'fees') : null}
            {row(t('landed.importTotal'), estimate.importJpy, 'import')}
            {paidJpy === null ? null : row(t('landed.doorTotal'), paidJpy + estimate.importJpy, 'door')}
          </dl>
          {estimate.importJpy === 0 && !estimate.itemTariff ? (
            <p className="mt-2 text-sm text-slate-700">{t('landed.nothing')}</p>
          ) : null}
          {estimate.itemTariff ? (
            <p className="mt-2 text-sm text-slate-700">{t('landed.itemTariff')}</p>
          ) : null}
          {estimate.upTo !== null ? (
            <p className="mt-2 text-sm text-slate-600">
              {t('landed.upTo', { limit: formatThreshold(estimate.upTo, estimate.currency, language) })}
            </p>
          ) : null}
        </>
      )}
      {warnings.length > 0 ? (
        <div
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          role="note"
        >
          <p className="font-semibold">{t('landed.warningsTitle')}</p>
          <ul className="mt-1 list-disc space-y-1 ps-5">
            {warnings.map((warning) => (
              <li key={warning.kind}>{warningText(warning, language, t)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {frozen.note[language] ? <p className="mt-3 text-sm text-slate-700">{frozen.note[language]}</p> : null}
      {frozen.uncertain[language] ? (
        <p className="mt-2 text-sm text-slate-600">
          <span className="font-medium">{t('landed.uncertain')}</span> {frozen.uncertain[language]}
        </p>
      ) : null}
      {frozen.effectiveFrom ? (
        <p className="mt-2 text-xs text-slate-600">
          {t('landed.ruleSince', { date: day(frozen.effectiveFrom) })}{' '}
          {frozen.source
            .split('\n')
            .filter((address) => address.startsWith('https://'))
            .map((address, index) => (
              <a
                key={address}
                href={address}
                rel="noreferrer"
                target="_blank"
                className="me-2 whitespace-nowrap underline underline-offset-2"
              >
                {t('landed.source', { number: index + 1 })}
              </a>
            ))}
        </p>
      ) : null}
    </section>
  )
}

export function warningText(warning: RuleWarning, language: Language, t: TFunction): string {
  switch (warning.kind) {
    case 'shipmentsPerYear':
      return t(
        warning.onlyWithoutTaxId
          ? 'landed.warnings.shipmentsPerYearNoTaxId'
          : 'landed.warnings.shipmentsPerYear',
        {
          limit: warning.limit,
          used: warning.used,
        },
      )
    case 'valuePerYear':
      return t(
        warning.onlyWithoutTaxId ? 'landed.warnings.valuePerYearNoTaxId' : 'landed.warnings.valuePerYear',
        {
          limit: formatThreshold(warning.limit, warning.currency, language),
          used: formatIn(warning.used, warning.currency, language),
        },
      )
    case 'unitsPerItem':
      return t('landed.warnings.unitsPerItem', { limit: warning.limit, units: warning.units })
    case 'taxIdRequired':
      return t('landed.warnings.taxIdRequired')
    case 'overThreshold':
      return t('landed.warnings.overThreshold', {
        threshold: formatThreshold(warning.threshold, warning.currency, language),
      })
  }
}
