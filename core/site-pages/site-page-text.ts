import { z } from 'zod'
import { cleanText, group } from '#core/shared/form-values.ts'

/**
 * The public pages whose text staff write in both languages (ADR 038): what we cannot buy or
 * ship, and the seller disclosure (特定商取引法に基づく表記). Pure: the admin editor's form runs
 * it in the browser, the pages read their text with it.
 */
export const SITE_PAGE_SLUGS = ['prohibited-items', 'seller-disclosure'] as const
export type SitePageSlug = (typeof SITE_PAGE_SLUGS)[number]

export function isSitePageSlug(value: unknown): value is SitePageSlug {
  return typeof value === 'string' && (SITE_PAGE_SLUGS as readonly string[]).includes(value)
}

/** Where each page is on the site. */
export const SITE_PAGE_PATHS: Record<SitePageSlug, `/${string}`> = {
  'prohibited-items': '/prohibited-items',
  'seller-disclosure': '/seller-disclosure',
}

export const SITE_PAGE_LIMITS = { title: 200, lead: 1_000, body: 20_000 } as const

const L = SITE_PAGE_LIMITS

/** The editor's form: each text in Spanish and English, and the version the form showed. */
export const SitePageFormSchema = z.object({
  version: z.preprocess(
    // Conform may hand it over as a number already.
    (value) => (/^\d{1,9}$/.test(String(value)) ? Number(value) : 0),
    z.number().int(),
  ),
  title: group({ es: cleanText({ max: L.title }), en: cleanText({ max: L.title }) }),
  lead: group({
    es: cleanText({ max: L.lead, multiline: true }),
    en: cleanText({ max: L.lead, multiline: true }),
  }),
  body: group({
    es: cleanText({ max: L.body, multiline: true }),
    en: cleanText({ max: L.body, multiline: true }),
  }),
})
export type SitePageInput = z.output<typeof SitePageFormSchema>

export type SitePageBlock = { type: 'paragraph'; text: string } | { type: 'list'; items: string[] }
export type SitePageSection = { heading: string | null; blocks: SitePageBlock[] }

/**
 * A page's body as its sections: "## " starts a section with its heading, lines that start with
 * "- " are the items of a list, other lines a paragraph (a blank line ends one). Nothing else is
 * markup: the text is shown as text.
 */
export function sectionsOf(body: string): SitePageSection[] {
  const sections: SitePageSection[] = []
  let section: SitePageSection | null = null
  let paragraph: string[] = []
  let list: string[] = []
  const current = () => {
    if (!section) {
      section = { heading: null, blocks: [] }
      sections.push(section)
    }
    return section
  }
  const flush = () => {
    if (paragraph.length > 0) current().blocks.push({ type: 'paragraph', text: paragraph.join('\n') })
    if (list.length > 0) current().blocks.push({ type: 'list', items: list })
    paragraph = []
    list = []
  }
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim()
    if (line.startsWith('## ')) {
      flush()
      section = { heading: line.slice(3).trim(), blocks: [] }
      sections.push(section)
    } else if (line.startsWith('- ')) {
      if (paragraph.length > 0) flush()
      list.push(line.slice(2).trim())
    } else if (line === '') {
      flush()
    } else {
      if (list.length > 0) flush()
      paragraph.push(line)
    }
  }
  flush()
  return sections
}

/** The settings a page's text may name, as `{{company.name}}`, written for the reader. */
export const SITE_PAGE_PLACEHOLDERS = [
  'company.name',
  'company.address',
  'company.email',
  'company.taxRegistrationId',
  'serviceFee',
  'taxRate',
  'daysToPay',
  'freeStorageDays',
  'storageFeePerDay',
] as const
export type SitePagePlaceholder = (typeof SITE_PAGE_PLACEHOLDERS)[number]

/** Fills in the placeholders; one it does not know stays as written. */
export function fillPlaceholders(text: string, values: Record<SitePagePlaceholder, string>): string {
  return text.replace(/\{\{\s*([a-zA-Z.]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as SitePagePlaceholder] : whole,
  )
}
