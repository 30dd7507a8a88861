import { z } from 'zod'

export { type Bilingual, inLanguage } from './bilingual.ts'

/**
 * A text customers read, in Spanish and English. A row stored when it was one text reads as that
 * text in both languages until an admin writes each.
 */
function bilingual(max: number) {
  const text = z.string().trim().min(1).max(max)
  return z.preprocess(
    (value) => (typeof value === 'string' ? { es: value, en: value } : value),
    z.object({ es: text, en: text }),
  )
}

/**
 * Business values staff change in the admin panel. Each top-level key is one row of the
 * `settings` table; a missing row falls back to the default below, so a new setting needs no
 * data migration.
 */
const DEFAULT_BANK_INSTRUCTIONS = {
  es: 'Transfiere el total exacto de tu cotización y escribe su número en el concepto. Cuando veamos el pago en la cuenta, marcaremos tu cotización como pagada y te avisaremos.',
  en: 'Transfer the exact total of your quote and write its number as the reference. Once the payment shows in our account, we mark your quote as paid and let you know.',
}

/** The shops covered first (issue 31): their product pages are read when a customer pastes a link. */
export const DEFAULT_PREVIEW_HOSTS = [
  'mercari.com',
  'amazon.co.jp',
  'rakuten.co.jp',
  'shopping.yahoo.co.jp',
  'auctions.yahoo.co.jp',
  'suruga-ya.jp',
  'mandarake.co.jp',
  'amiami.jp',
  'amiami.com',
  'zozo.jp',
  'uniqlo.com',
] as const

const httpsUrl = z.url({ protocol: /^https$/, error: 'validation.url' }).max(300)

export const SettingsSchema = z.object({
  serviceFeeJpy: z.number().int().min(0).max(100_000),
  taxRate: z.number().min(0).max(1),
  yenRates: z.object({
    USD: z.number().positive().max(1_000),
    MXN: z.number().positive().max(1_000),
    CLP: z.number().positive().max(1_000),
  }),
  /**
   * Units of the currencies import thresholds are written in that one yen buys, for reading them
   * (issue 30): USD is the yen rate above; EUR is kept here, edited with the import rules.
   */
  customsRates: z.object({ EUR: z.number().positive().max(1_000) }),
  freeStorageDays: z.number().int().min(0).max(3_650),
  /** Yen per day a package stays after its free days (issue #12; the research's ¥100 a day). */
  storageFeePerDayJpy: z.number().int().min(0).max(100_000),
  /** Grams added to the items' weights for the box and padding in a shipping estimate (issue #11). */
  packingAllowanceG: z.number().int().min(0).max(5_000),
  /** Days before an item's free storage ends when its customer is reminded (issue #11: 7 and 1). */
  storageReminderDays: z.array(z.number().int().min(1).max(365)).max(5),
  /** Days after shipping before a customer may report a parcel lost (issue #11). */
  claimAfterDays: z.number().int().min(1).max(180),
  /** Days after free storage ends before an admin may dispose of an item left at the office (issue #11). */
  disposalAfterDays: z.number().int().min(1).max(3_650),
  messaging: z.object({ instagram: httpsUrl, facebook: httpsUrl, whatsapp: httpsUrl }),
  /**
   * The shops whose links the site reads for a customer (issue 31, core/link-preview/): a link
   * is fetched only when its host is one of these or under one. Rows stored before it existed
   * read as the default.
   */
  previewHosts: z
    .array(
      z
        .string()
        .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/)
        .max(253),
    )
    .max(40)
    .default(() => [...DEFAULT_PREVIEW_HOSTS]),
  company: z.object({
    name: z.string().trim().min(1).max(120),
    /** Shown in the footer, on receipts and in every e-mail: in the reader's language. */
    address: bilingual(300),
    email: z.email().max(254),
    taxRegistrationId: z.string().trim().min(1).max(40),
  }),
  /** Days a customer has to pay a quote before it expires (issue #10: 7). */
  daysToPay: z.number().int().min(1).max(60),
  /** Shown to customers who pay by bank transfer (the manual payment method). */
  bankTransfer: z.object({
    bankName: z.string().trim().min(1).max(120),
    branch: bilingual(120),
    accountType: bilingual(40),
    accountNumber: z.string().trim().min(1).max(40),
    accountHolder: z.string().trim().min(1).max(120),
    swift: z.string().trim().max(20),
    /**
     * What a customer reads on how to pay by transfer, in each language. Rows stored before it
     * existed read as the default, so the bank details beside it are kept.
     */
    instructions: z
      .object({ es: z.string().trim().min(1).max(2_000), en: z.string().trim().min(1).max(2_000) })
      .default(() => ({ ...DEFAULT_BANK_INSTRUCTIONS })),
  }),
})

export type Settings = z.output<typeof SettingsSchema>
export type SettingKey = keyof Settings
export const SETTING_KEYS = Object.keys(SettingsSchema.shape) as SettingKey[]

/**
 * The specification's constants. Company details and messaging links are placeholders until
 * staff enter the real ones; the seed stores them marked as demo data.
 */
export const DEFAULT_SETTINGS: Settings = {
  serviceFeeJpy: 500,
  taxRate: 0.1,
  yenRates: { USD: 0.0068, MXN: 0.13, CLP: 6.54 },
  customsRates: { EUR: 0.0058 },
  freeStorageDays: 30,
  storageFeePerDayJpy: 100,
  packingAllowanceG: 200,
  storageReminderDays: [7, 1],
  claimAfterDays: 30,
  disposalAfterDays: 90,
  messaging: {
    instagram: 'https://www.instagram.com/',
    facebook: 'https://www.facebook.com/',
    whatsapp: 'https://wa.me/',
  },
  previewHosts: [...DEFAULT_PREVIEW_HOSTS],
  company: {
    name: 'Demo Proxy Shopping Japan',
    address: { es: 'Osaka, Japón', en: 'Osaka, Japan' },
    email: 'hello@example.com',
    taxRegistrationId: 'T0000000000000',
  },
  daysToPay: 7,
  bankTransfer: {
    bankName: 'Demo Bank',
    branch: { es: 'Sucursal principal de Osaka', en: 'Osaka Main Branch' },
    accountType: { es: 'Futsu (cuenta de ahorro ordinaria)', en: 'Futsu (ordinary savings account)' },
    accountNumber: '0000000',
    accountHolder: 'Demo Proxy Shopping Japan',
    swift: 'DEMOJPJT',
    instructions: DEFAULT_BANK_INSTRUCTIONS,
  },
}

export const SettingsPatchSchema = SettingsSchema.partial()
export type SettingsPatch = z.output<typeof SettingsPatchSchema>
