import { z } from 'zod'
import {
  cleanText,
  decimalNumber,
  emailAddress,
  group,
  hostNameList,
  httpsAddress,
  wholeNumber,
  wholeNumberList,
} from '#core/shared/form-values.ts'
import type { Settings } from './settings-schema.ts'

/**
 * The admin settings form (/admin-dashboard/settings): every setting as a person types it, read
 * into `Settings` or refused field by field with keys of `adminForm.errors`. One schema for
 * Conform in the browser and the action on the server. The tax rate is typed as a percentage
 * (10, 8.25) and stored as a fraction (0.1, 0.0825).
 */

/** Longest text of each text field (the page shows them and says so in the "too long" message). */
export const SETTINGS_TEXT_LIMITS = {
  companyName: 120,
  companyAddress: 300,
  taxRegistrationId: 40,
  bankShort: 120,
  accountType: 40,
  accountNumber: 40,
  swift: 20,
  instructions: 2_000,
} as const

const L = SETTINGS_TEXT_LIMITS

export const SettingsFormSchema = z
  .object({
    // What the form showed (settings-service.ts `settingsVersion`); a missing or altered one is
    // simply stale: the service answers `settingsChanged`.
    version: z.preprocess((value) => (typeof value === 'string' ? value.slice(0, 64) : ''), z.string()),
    serviceFeeJpy: wholeNumber({ min: 0, max: 100_000, rangeKey: 'serviceFeeRange', yen: true }),
    taxPercent: decimalNumber({
      max: 100,
      decimals: 2,
      rangeKey: 'taxRange',
      decimalsKey: 'taxDecimals',
      suffix: '%',
    }),
    yenRates: group({
      USD: rate(),
      MXN: rate(),
      CLP: rate(),
    }),
    customsRates: group({ EUR: rate() }),
    freeStorageDays: wholeNumber({ min: 0, max: 3_650, rangeKey: 'freeDaysRange' }),
    storageFeePerDayJpy: wholeNumber({ min: 0, max: 100_000, rangeKey: 'storageFeeRange', yen: true }),
    packingAllowanceG: wholeNumber({ min: 0, max: 5_000, rangeKey: 'packingRange' }),
    storageReminderDays: wholeNumberList({ min: 1, max: 365, most: 5, key: 'reminderDays' }),
    claimAfterDays: wholeNumber({ min: 1, max: 180, rangeKey: 'claimDaysRange' }),
    disposalAfterDays: wholeNumber({ min: 1, max: 3_650, rangeKey: 'disposalDaysRange' }),
    daysToPay: wholeNumber({ min: 1, max: 60, rangeKey: 'daysToPayRange' }),
    messaging: group({ instagram: httpsAddress(), facebook: httpsAddress(), whatsapp: httpsAddress() }),
    previewHosts: hostNameList({ most: 40, key: 'previewHosts' }),
    company: group({
      name: cleanText({ max: L.companyName }),
      address: group({
        es: cleanText({ max: L.companyAddress, multiline: true }),
        en: cleanText({ max: L.companyAddress, multiline: true }),
      }),
      email: emailAddress(),
      taxRegistrationId: cleanText({ max: L.taxRegistrationId }),
    }),
    bankTransfer: group({
      bankName: cleanText({ max: L.bankShort }),
      branch: group({ es: cleanText({ max: L.bankShort }), en: cleanText({ max: L.bankShort }) }),
      accountType: group({ es: cleanText({ max: L.accountType }), en: cleanText({ max: L.accountType }) }),
      accountNumber: cleanText({ max: L.accountNumber }),
      accountHolder: cleanText({ max: L.bankShort }),
      swift: cleanText({ max: L.swift, optional: true }),
      instructions: group({
        es: cleanText({ max: L.instructions, multiline: true }),
        en: cleanText({ max: L.instructions, multiline: true }),
      }),
    }),
  })
  .transform(({ version, taxPercent, ...rest }): { version: string; values: Settings } => ({
    version,
    // Whole basis points: 8.25 % is 0.0825 exactly as taxOn reads it (core/pricing/pricing.ts).
    values: { ...rest, taxRate: Math.round(taxPercent * 100) / 10_000 },
  }))

export type SettingsFormOutput = z.output<typeof SettingsFormSchema>

/** A yen exchange rate: how much of the currency one yen buys. Zero would price everything at nothing. */
function rate() {
  return decimalNumber({
    max: 1_000,
    decimals: 8,
    rangeKey: 'rateRange',
    decimalsKey: 'rateDecimals',
    zeroKey: 'rateZero',
  })
}

/** The form's fields as strings, for the values stored now (what the page shows first). */
export type SettingsFormFields = {
  version: string
  serviceFeeJpy: string
  taxPercent: string
  yenRates: Record<'USD' | 'MXN' | 'CLP', string>
  customsRates: Record<'EUR', string>
  freeStorageDays: string
  storageFeePerDayJpy: string
  packingAllowanceG: string
  storageReminderDays: string
  claimAfterDays: string
  disposalAfterDays: string
  daysToPay: string
  messaging: Record<'instagram' | 'facebook' | 'whatsapp', string>
  previewHosts: string
  company: Record<'name' | 'email' | 'taxRegistrationId', string> & { address: Record<'es' | 'en', string> }
  bankTransfer: Record<'bankName' | 'accountNumber' | 'accountHolder' | 'swift', string> & {
    branch: Record<'es' | 'en', string>
    accountType: Record<'es' | 'en', string>
    instructions: Record<'es' | 'en', string>
  }
}

export function settingsFormFields(values: Settings, version: string): SettingsFormFields {
  return {
    version,
    serviceFeeJpy: String(values.serviceFeeJpy),
    taxPercent: String(Math.round(values.taxRate * 10_000) / 100),
    yenRates: {
      USD: decimalText(values.yenRates.USD),
      MXN: decimalText(values.yenRates.MXN),
      CLP: decimalText(values.yenRates.CLP),
    },
    customsRates: { EUR: decimalText(values.customsRates.EUR) },
    freeStorageDays: String(values.freeStorageDays),
    storageFeePerDayJpy: String(values.storageFeePerDayJpy),
    packingAllowanceG: String(values.packingAllowanceG),
    storageReminderDays: values.storageReminderDays.join(', '),
    claimAfterDays: String(values.claimAfterDays),
    disposalAfterDays: String(values.disposalAfterDays),
    daysToPay: String(values.daysToPay),
    messaging: { ...values.messaging },
    previewHosts: values.previewHosts.join(', '),
    company: { ...values.company, address: { ...values.company.address } },
    bankTransfer: {
      ...values.bankTransfer,
      branch: { ...values.bankTransfer.branch },
      accountType: { ...values.bankTransfer.accountType },
      instructions: { ...values.bankTransfer.instructions },
    },
  }
}

/** A number as plain decimals ("0.0068", never "6.8e-3"). */
function decimalText(value: number): string {
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 8 })
}

/**
 * The fields whose value differs between two forms (after a conflict: what is saved now against
 * what was sent), as Conform's field names ("yenRates.USD") → the value in `saved`.
 */
export function changedFormFields(
  saved: SettingsFormFields,
  sent: SettingsFormFields,
): Record<string, string> {
  const changed: Record<string, string> = {}
  const walk = (a: unknown, b: unknown, path: string) => {
    if (typeof a === 'object' && a !== null) {
      for (const [key, child] of Object.entries(a))
        walk(child, (b as Record<string, unknown> | undefined)?.[key], path ? `${path}.${key}` : key)
    } else if (path !== 'version' && a !== b) changed[path] = String(a)
  }
  walk(saved, sent, '')
  return changed
}
