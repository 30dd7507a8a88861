import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { AUDIT_FIELDS, type AuditField, auditStatusKind } from '#core/audit/audit-kinds.ts'
import { formatMoney, formatNumber, formatPercent } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { REGIONS, type Region } from '#core/pricing/pricing.ts'
import { isSitePageSlug, SITE_PAGE_PATHS } from '#core/site-pages/site-page-text.ts'
import { describeDestinationMethods, describeImportRuleAdd } from './import-rule-text.ts'

/**
 * What one audit record changed, old → new, in words (app/routes/admin/audit.tsx): a role, the
 * settings that changed (labelled as on the settings page), the rows of a rate table. A kind this
 * page does not know yet shows its paths and values as they are stored.
 */

type Record_ = {
  kind: string
  subjectType: string
  subjectId: string | null
  subjectEmail: string | null
  before: Record<string, unknown>
  after: Record<string, unknown>
}

// A settings path → its label on the settings page (adminSettings.fields).
const SETTING_LABELS: Record<string, string> = {
  serviceFeeJpy: 'serviceFeeJpy',
  taxRate: 'taxPercent',
  'yenRates.USD': 'USD',
  'yenRates.MXN': 'MXN',
  'yenRates.CLP': 'CLP',
  'customsRates.EUR': 'EUR',
  freeStorageDays: 'freeStorageDays',
  storageFeePerDayJpy: 'storageFeePerDayJpy',
  packingAllowanceG: 'packingAllowanceG',
  claimAfterDays: 'claimAfterDays',
  disposalAfterDays: 'disposalAfterDays',
  storageReminderDays: 'storageReminderDays',
  daysToPay: 'daysToPay',
  'messaging.instagram': 'instagram',
  'messaging.facebook': 'facebook',
  'messaging.whatsapp': 'whatsapp',
  'company.name': 'companyName',
  'company.address': 'address',
  'company.address.es': 'addressEs',
  'company.address.en': 'addressEn',
  'company.email': 'email',
  'company.taxRegistrationId': 'taxRegistrationId',
  'bankTransfer.bankName': 'bankName',
  'bankTransfer.branch': 'branch',
  'bankTransfer.branch.es': 'branchEs',
  'bankTransfer.branch.en': 'branchEn',
  'bankTransfer.accountType': 'accountType',
  'bankTransfer.accountType.es': 'accountTypeEs',
  'bankTransfer.accountType.en': 'accountTypeEn',
  'bankTransfer.accountNumber': 'accountNumber',
  'bankTransfer.accountHolder': 'accountHolder',
  'bankTransfer.swift': 'swift',
  'bankTransfer.instructions.es': 'instructionsEs',
  'bankTransfer.instructions.en': 'instructionsEn',
}

const YEN_SETTINGS = new Set(['serviceFeeJpy', 'storageFeePerDayJpy'])
const LONGEST_SHOWN = 120

export function AuditChange({ record, language }: { record: Record_; language: Language }) {
  const { t } = useTranslation()
  const lines = describe(record, t, language)
  return (
    <ul className="mt-2 space-y-1 text-sm text-slate-900">
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one record never reorder
        <li key={index} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  )
}

export function describe(record: Record_, t: TFunction, language: Language): string[] {
  const yen = (value: unknown) =>
    typeof value === 'number' ? formatMoney(value, 'JPY', language) : text(value, t)
  if (record.kind === 'role.assign') {
    const role = (value: unknown) =>
      value === 'user' || value === 'admin' || value === 'moderator'
        ? t(`session.roles.${value}`)
        : text(value, t)
    return [
      t('audit.roleChange', {
        user: record.subjectEmail ?? t('audit.deletedAccount'),
        from: role(record.before.role),
        to: role(record.after.role),
      }),
    ]
  }
  if (record.kind === 'settings.update') {
    const value = (path: string, stored: unknown) => {
      if (stored === undefined) return t('audit.blank')
      if (YEN_SETTINGS.has(path)) return yen(stored)
      if (path === 'taxRate' && typeof stored === 'number') return formatPercent(stored, language)
      if (typeof stored === 'number') return formatNumber(stored, language)
      return text(stored, t)
    }
    return paths(record).map((path) => {
      const label = SETTING_LABELS[path]
      return t('audit.valueChange', {
        field: label ? t(`adminSettings.fields.${label as 'USD'}`) : path,
        from: value(path, record.before[path]),
        to: value(path, record.after[path]),
      })
    })
  }
  if (record.kind === 'rates.update') {
    const method = record.subjectId === 'economic' || record.subjectId === 'express' ? record.subjectId : null
    const heading = method
      ? t('audit.ratesSubject', { method: t(`adminRates.methods.${method}`) })
      : text(record.subjectId, t)
    const region = (name: Region) => t(`adminRates.regions.${name}`)
    const ceilings = paths(record).sort((a, b) => Number(a) - Number(b))
    return [
      heading,
      ...ceilings.map((ceiling) => {
        const before = prices(record.before[ceiling])
        const after = prices(record.after[ceiling])
        const weight = formatNumber(Number(ceiling), language)
        const all = (set: Record<Region, number>) =>
          REGIONS.map((name) => `${region(name)} ${yen(set[name])}`).join(', ')
        if (before && after)
          return t('audit.rowChange', {
            ceiling: weight,
            prices: REGIONS.filter((name) => before[name] !== after[name])
              .map((name) => `${region(name)} ${yen(before[name])} → ${yen(after[name])}`)
              .join(', '),
          })
        if (after) return t('audit.rowAdded', { ceiling: weight, prices: all(after) })
        if (before) return t('audit.rowRemoved', { ceiling: weight, prices: all(before) })
        return weight
      }),
    ]
  }
  if (record.kind.startsWith('store.')) return describeStore(record, t, language)
  // Import rules and the methods a destination can use (issue 30): ./import-rule-text.ts.
  if (record.kind === 'import_rule.add') return describeImportRuleAdd(record, t, language)
  if (record.kind === 'destination.methods') return describeDestinationMethods(record, t, language)
  if (record.kind === 'page.update') {
    const path = isSitePageSlug(record.subjectId)
      ? SITE_PAGE_PATHS[record.subjectId]
      : text(record.subjectId, t)
    return [
      t('audit.pageSubject', { path }),
      ...paths(record).map((field) =>
        t('audit.valueChange', {
          field: t(`audit.pageFields.${field.replace('.', '_') as 'body_es'}`, { defaultValue: field }),
          from: text(record.before[field], t),
          to: text(record.after[field], t),
        }),
      ),
    ]
  }
  return describeFields(record, t, language)
}

/**
 * A record of fields (AUDIT_FIELDS): what it is about first (the request or shipment, the
 * quote, the item), then each other field in words, old → new, or just the new value when it is
 * new. Amounts in yen, weights in grams, statuses, methods and roles in words.
 */
function describeFields(record: Record_, t: TFunction, language: Language): string[] {
  const statusKind = auditStatusKind(record.kind)
  const value = (path: string, stored: unknown): string => {
    if (stored === undefined || stored === null || stored === '') return t('audit.blank')
    const type = isAuditField(path) ? AUDIT_FIELDS[path] : 'text'
    switch (type) {
      case 'yen':
        return typeof stored === 'number' ? formatMoney(stored, 'JPY', language) : text(stored, t)
      case 'grams':
        return typeof stored === 'number'
          ? t('audit.grams', { weight: formatNumber(stored, language) })
          : text(stored, t)
      case 'days':
        return typeof stored === 'number'
          ? t('audit.days', { count: stored, days: formatNumber(stored, language) })
          : text(stored, t)
      case 'count':
        return typeof stored === 'number' ? formatNumber(stored, language) : text(stored, t)
      case 'yesNo':
        return t(stored ? 'audit.yes' : 'audit.no')
      case 'status':
        return statusKind && typeof stored === 'string'
          ? t(`audit.statuses.${statusKind}.${stored as 'lost'}`, { defaultValue: stored })
          : text(stored, t)
      case 'provider':
        return t(`audit.providers.${String(stored) as 'paypal'}`, { defaultValue: text(stored, t) })
      case 'role':
        return t(`session.roles.${String(stored) as 'user'}`, { defaultValue: text(stored, t) })
      case 'logo':
        return t('audit.storeFields.logoUploaded', { id: text(stored, t) })
      default:
        return text(stored, t)
    }
  }
  const subject = (['request', 'shipment', 'invoice', 'item'] as const).flatMap((field) => {
    const stored = record.after[field] ?? record.before[field]
    if (stored === undefined || stored === null) return []
    return [t(`audit.subjects.${field}`, { value: value(field, stored) })]
  })
  const shownInSubject = new Set(['request', 'shipment', 'invoice', 'item'])
  const lines = paths(record)
    .filter((path) => !shownInSubject.has(path))
    .map((path) => {
      const field = isAuditField(path) ? t(`audit.fields.${path}`) : path
      const before = record.before[path]
      const after = record.after[path]
      if (!(path in record.before)) return t('audit.valueSet', { field, to: value(path, after) })
      return t('audit.valueChange', { field, from: value(path, before), to: value(path, after) })
    })
  return subject.length > 0 ? [subject.join(' · '), ...lines] : lines
}

function isAuditField(path: string): path is AuditField {
  return Object.hasOwn(AUDIT_FIELDS, path)
}

const STORE_FIELDS = new Set([
  'name',
  'url',
  'descriptionEs',
  'descriptionEn',
  'categories',
  'logoText',
  'logoColor',
])

/** A store guide edit: the store's name, then each field old → new (categories and flags in words). */
function describeStore(record: Record_, t: TFunction, language: Language): string[] {
  const name = record.after.name ?? record.before.name
  const value = (path: string, stored: unknown) => {
    if (stored === undefined || stored === null) return t('audit.blank')
    if (path === 'hidden') return t(stored ? 'audit.yes' : 'audit.no')
    if (path === 'position' && typeof stored === 'number') return formatNumber(stored, language)
    if (path === 'categories' && typeof stored === 'string') {
      return stored
        .split(', ')
        .map((category) =>
          t(`storeCategories.${category as 'household_and_misc'}`, { defaultValue: category }),
        )
        .join(', ')
    }
    if (path === 'logo') return t('audit.storeFields.logoUploaded', { id: text(stored, t) })
    return text(stored, t)
  }
  const field = (path: string) =>
    STORE_FIELDS.has(path)
      ? t(`adminStores.fields.${path as 'name'}`)
      : t(`audit.fields.${path as 'hidden'}`, { defaultValue: path })
  const changes = paths(record).filter(
    (path) => record.kind === 'store.create' || path !== 'name' || record.before.name !== record.after.name,
  )
  return [
    t('audit.storeSubject', { name: text(name, t), id: record.subjectId ?? '' }),
    ...changes.map((path) =>
      t('audit.valueChange', {
        field: field(path),
        from: value(path, record.before[path]),
        to: value(path, record.after[path]),
      }),
    ),
  ]
}

function paths(record: Record_): string[] {
  return [...new Set([...Object.keys(record.before), ...Object.keys(record.after)])]
}

function prices(value: unknown): Record<Region, number> | null {
  if (typeof value !== 'object' || value === null) return null
  const set = value as Record<string, unknown>
  return REGIONS.every((name) => typeof set[name] === 'number') ? (set as Record<Region, number>) : null
}

/** A stored value as text: strings as they are (cut when long), anything else as JSON. */
function text(value: unknown, t: TFunction): string {
  if (value === undefined || value === null || value === '') return t('audit.blank')
  const written = typeof value === 'string' ? value : JSON.stringify(value)
  return written.length > LONGEST_SHOWN ? `${written.slice(0, LONGEST_SHOWN)}…` : written
}
