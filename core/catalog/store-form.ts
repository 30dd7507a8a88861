import { z } from 'zod'
import { cleanText, httpsAddress } from '#core/shared/form-values.ts'
import { STORE_CATEGORIES, type StoreCategory } from './store-categories.ts'

/**
 * The store editor's form (/admin-dashboard/stores/new and /:id; docs/decisions/026): a store as
 * an admin types it, read into `StoreValues` or refused field by field with keys of
 * `adminForm.errors`. One schema for Conform in the browser and the action on the server.
 */

export const STORE_TEXT_LIMITS = { name: 80, description: 400, logoText: 3 } as const

export type StoreValues = {
  name: string
  url: string
  descriptionEs: string
  descriptionEn: string
  categories: StoreCategory[]
  logoText: string
  logoColor: string
}

/** White monogram letters need this contrast on the logo colour (WCAG AA for normal text). */
export const LOGO_MIN_CONTRAST = 4.5

/** The contrast ratio of white on `#rrggbb` (WCAG 2 relative luminance). */
export function contrastWithWhite(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
  return 1.05 / (luminance + 0.05)
}

function issue(ctx: z.RefinementCtx<unknown>, message: string, input: unknown): never {
  ctx.issues.push({ code: 'custom', message, input })
  return z.NEVER as never
}

/** Checkboxes: nothing, one value or several; each a known category, at least one. */
const categories = z.unknown().transform((value, ctx): StoreCategory[] => {
  const list =
    value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value]
  if (list.length === 0) return issue(ctx, 'categoriesRequired', value)
  const known = list.map((item) => STORE_CATEGORIES.find((category) => category === item))
  if (known.some((item) => item === undefined) || list.length > STORE_CATEGORIES.length) {
    return issue(ctx, 'invalid', value)
  }
  // In the guide's order, each once.
  return STORE_CATEGORIES.filter((category) => known.includes(category))
})

/** A colour as `<input type="color">` sends it; dark enough for white letters. */
const logoColor = cleanText({ max: 7 }).transform((value, ctx): string => {
  if (!/^#[0-9a-fA-F]{6}$/.test(value)) return issue(ctx, 'colorFormat', value)
  const color = value.toLowerCase()
  if (contrastWithWhite(color) < LOGO_MIN_CONTRAST) return issue(ctx, 'colorContrast', value)
  return color
})

export const StoreFormSchema = z
  .object({
    // The version the form showed (0 for a new store); anything else sent by hand is stale.
    version: z.preprocess((value) => {
      const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : 0
      return number
    }, z.number()),
    name: cleanText({ max: STORE_TEXT_LIMITS.name }),
    url: httpsAddress(),
    descriptionEs: cleanText({ max: STORE_TEXT_LIMITS.description, multiline: true }),
    descriptionEn: cleanText({ max: STORE_TEXT_LIMITS.description, multiline: true }),
    categories,
    logoText: cleanText({ max: STORE_TEXT_LIMITS.logoText }),
    logoColor,
  })
  .transform(({ version, ...values }): { version: number; values: StoreValues } => ({ version, values }))

export type StoreFormOutput = z.output<typeof StoreFormSchema>

/** What the form shows for a store (or the empty form for a new one). */
export function storeFormFields(values: StoreValues | null, version = 0) {
  return {
    version: String(version),
    name: values?.name ?? '',
    url: values?.url ?? '',
    descriptionEs: values?.descriptionEs ?? '',
    descriptionEn: values?.descriptionEn ?? '',
    categories: values?.categories ?? [],
    logoText: values?.logoText ?? '',
    logoColor: values?.logoColor ?? '#334155',
  }
}

export type StoreFormFields = ReturnType<typeof storeFormFields>

/** The address's slug for a new store: its name in plain lower-case letters and digits. */
export function slugFor(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug || 'store'
}
