import type { TFunction } from 'i18next'
import { japanDay } from '#app/lib/dates.ts'
import { countryName } from '#core/customers/countries.ts'
import {
  type ImportBand,
  type ImportRule,
  ImportRuleSchema,
  RULE_CURRENCIES,
} from '#core/landed-cost/import-rules.ts'
import { formatNumber, formatPercent, intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'

/**
 * An import rule in words (the admin's import rules pages and the audit log): each band as "up to
 * USD 200: no duty, IVA 19 %", amounts in the rule's currency, the rule's choices in words.
 */

/** An amount in the rule's currency: thresholds in whole units, fees in minor units. */
export function ruleAmount(
  value: number,
  currency: string,
  language: Language,
  { minor = false }: { minor?: boolean } = {},
): string {
  const known = (RULE_CURRENCIES as readonly string[]).includes(currency)
  const amount = minor ? value / 100 : value
  if (!known) return `${currency} ${formatNumber(amount, language)}`
  return new Intl.NumberFormat(intlLocale(language), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: minor && value % 100 !== 0 ? 2 : 0,
    maximumFractionDigits: minor ? 2 : 0,
    useGrouping: 'always',
  }).format(amount)
}

const percent = (bp: number, language: Language) => formatPercent(bp / 10_000, language)

/** Which customs values a band holds, after the band before it (whose upper end is `previous`). */
export function bandValue(
  t: TFunction,
  band: Pick<ImportBand, 'upTo'>,
  previous: number | null,
  currency: string,
  language: Language,
): string {
  const amount = (value: number) => ruleAmount(value, currency, language)
  if (band.upTo === null)
    return previous === null
      ? t('importRules.band.any')
      : t('importRules.band.above', { amount: amount(previous) })
  return previous === null
    ? t('importRules.band.upTo', { amount: amount(band.upTo) })
    : t('importRules.band.between', { from: amount(previous), to: amount(band.upTo) })
}

/** What a band charges, in words. */
export function bandCharges(
  t: TFunction,
  band: ImportBand,
  rule: Pick<ImportRule, 'currency' | 'taxName'>,
  language: Language,
): string {
  if (band.formal) return t('importRules.band.formal')
  const tax = rule.taxName
  const parts = band.flat
    ? [t('importRules.band.flat', { percent: percent(band.dutyBp, language), tax })]
    : [
        band.dutyBp > 0
          ? t('importRules.band.duty', { percent: percent(band.dutyBp, language) })
          : t('importRules.band.noDuty'),
        band.vatBp > 0
          ? t('importRules.band.vat', { tax, percent: percent(band.vatBp, language) })
          : t('importRules.band.noVat', { tax }),
      ]
  if (band.itemTariff) parts.push(t('importRules.band.itemTariff'))
  if (band.perCategoryMinor > 0)
    parts.push(
      t('importRules.band.perCategory', {
        amount: ruleAmount(band.perCategoryMinor, rule.currency, language, { minor: true }),
      }),
    )
  return parts.join(', ')
}

/** Each band of a rule as { value, charges }. */
export function bandLines(t: TFunction, rule: ImportRule, language: Language) {
  return rule.bands.map((band, index) => ({
    value: bandValue(t, band, rule.bands[index - 1]?.upTo ?? null, rule.currency, language),
    charges: bandCharges(t, band, rule, language),
  }))
}

type AuditRecord = {
  subjectId: string | null
  before: Record<string, unknown>
  after: Record<string, unknown>
}

const LONGEST_SHOWN = 120
const cut = (text: string) => (text.length > LONGEST_SHOWN ? `${text.slice(0, LONGEST_SHOWN)}…` : text)

/** An `import_rule.add` record: the country and date, each band in words, then the other fields. */
export function describeImportRuleAdd(record: AuditRecord, t: TFunction, language: Language): string[] {
  const country = record.subjectId ? countryName(record.subjectId, language) : t('audit.blank')
  const { effectiveFrom, ...flat } = record.after
  const day = typeof effectiveFrom === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(effectiveFrom)
  const heading = t('importRules.audit.ruleSubject', {
    country,
    date: day ? japanDay(language)(effectiveFrom as string) : t('audit.blank'),
  })
  const parsed = ImportRuleSchema.safeParse(unflatten(flat))
  // A record this page cannot read as a rule shows its paths as stored.
  if (!parsed.success)
    return [
      heading,
      ...Object.entries(flat).map(([path, value]) =>
        t('audit.valueSet', { field: path, to: cut(value === null ? '—' : String(value)) }),
      ),
    ]
  const rule = parsed.data
  const yesNo = (value: boolean) => t(value ? 'importRules.yes' : 'importRules.no')
  const limit = (value: number | null, amount = false) =>
    value === null
      ? t('importRules.noLimit')
      : amount
        ? ruleAmount(value, rule.currency, language)
        : formatNumber(value, language)
  const line = (field: string, to: string) =>
    t('audit.valueSet', { field, to: to === '' ? t('audit.blank') : cut(to) })
  return [
    heading,
    ...bandLines(t, rule, language).map((band, index) =>
      t('importRules.audit.bandLine', { row: index + 1, value: band.value, charges: band.charges }),
    ),
    line(t('importRules.form.currency'), rule.currency),
    line(t('importRules.form.valueBasis'), t(`importRules.valueBases.${rule.valueBasis}`)),
    line(
      t('importRules.form.handlingFee'),
      ruleAmount(rule.handlingFeeMinor, rule.currency, language, { minor: true }),
    ),
    line(t('importRules.form.collectedBy'), t(`importRules.collectors.${rule.collectedBy}`)),
    line(t('importRules.form.taxName'), rule.taxName),
    line(t('importRules.form.shipmentsPerYear'), limit(rule.shipmentsPerYear)),
    line(t('importRules.form.valuePerYear'), limit(rule.valuePerYear, true)),
    line(t('importRules.form.limitsApplyTo'), t(`importRules.limitsApply.${rule.limitsApplyTo}`)),
    line(t('importRules.form.maxUnitsPerItem'), limit(rule.maxUnitsPerItem)),
    line(t('importRules.form.taxIdRequired'), yesNo(rule.taxIdRequired)),
    line(t('importRules.form.noteEs'), rule.note.es),
    line(t('importRules.form.noteEn'), rule.note.en),
    line(t('importRules.form.uncertainEs'), rule.uncertain.es),
    line(t('importRules.form.uncertainEn'), rule.uncertain.en),
    line(t('importRules.form.source'), rule.source.replaceAll('\n', ' ')),
  ]
}

/** A `destination.methods` record: the method and country, then availability and date, old → new. */
export function describeDestinationMethods(record: AuditRecord, t: TFunction, language: Language): string[] {
  const [country = '', method = ''] = (record.subjectId ?? '').split(':')
  const methodName = (SHIPPING_METHODS as readonly string[]).includes(method)
    ? t(`adminRates.methods.${method as 'economic'}`)
    : method
  const yesNo = (value: unknown) =>
    value === undefined ? t('audit.blank') : t(value ? 'importRules.yes' : 'importRules.no')
  const day = (value: unknown) =>
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? japanDay(language)(value)
      : t('audit.blank')
  const lines = [
    t('importRules.audit.methodSubject', {
      method: methodName,
      country: /^[A-Z]{2}$/.test(country) ? countryName(country, language) : country,
    }),
    t('audit.valueChange', {
      field: t('importRules.audit.available'),
      from: yesNo(record.before.available),
      to: yesNo(record.after.available),
    }),
  ]
  if ('effectiveFrom' in record.before || 'effectiveFrom' in record.after)
    lines.push(
      'effectiveFrom' in record.before
        ? t('audit.valueChange', {
            field: t('importRules.audit.since'),
            from: day(record.before.effectiveFrom),
            to: day(record.after.effectiveFrom),
          })
        : t('audit.valueSet', { field: t('importRules.audit.since'), to: day(record.after.effectiveFrom) }),
    )
  return lines
}

/** Flat audit paths ("bands.0.vatBp") back into an object, lists where the keys are indices. */
export function unflatten(flat: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [path, value] of Object.entries(flat)) {
    const parts = path.split('.')
    if (parts.some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype')) continue
    let node: Record<string, unknown> = root
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value
      else {
        const next = node[part]
        if (typeof next !== 'object' || next === null)
          node[part] = /^\d+$/.test(parts[index + 1] ?? '') ? [] : {}
        node = node[part] as Record<string, unknown>
      }
    })
  }
  return root
}
