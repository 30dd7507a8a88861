import type { AnyNode, Element } from 'domhandler'
import { DomUtils, parseDocument } from 'htmlparser2'

/**
 * The field cleaners and the small DOM queries the item readers share. Everything read from a
 * shop page is untrusted: prices are whole yen or nothing (never a guessed decimal), texts are
 * decoded, stripped of control characters and bounded, image URLs are absolute https URLs of
 * bounded length. Nothing here throws on odd input; it answers null.
 */

export type Availability = 'inStock' | 'soldOut'

export const MAX_TEXT_CHARS = 300
export const MAX_IMAGE_URL_CHARS = 2000
const MAX_YEN = 99_999_999

/** A price as whole yen (1..99,999,999): 12800, "¥12,800", "12,800円", "１２,８００円"; else null. */
export function readYen(value: unknown): number | null {
  const yen = readAmount(value)
  return yen !== null && yen >= 1 ? yen : null
}

/** A shipping charge as whole yen, where 0 (free shipping) is a real answer. */
export function readShippingYen(value: unknown): number | null {
  if (typeof value === 'string' && /送料無料|送料込|free shipping/i.test(value.normalize('NFKC'))) return 0
  return readAmount(value)
}

function readAmount(value: unknown): number | null {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 0 && value <= MAX_YEN ? value : null
  if (typeof value !== 'string' || value.length > 60) return null
  const text = value.normalize('NFKC').replace(/\s+/g, '').replace(/^送料/, '')
  const match = /^(?:¥|\\|JPY)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.0{1,2})?(?:円)?(?:\(税込\)|税込)?$/i.exec(text)
  if (!match?.[1]) return null
  const yen = Number(match[1].replaceAll(',', ''))
  return Number.isSafeInteger(yen) && yen <= MAX_YEN ? yen : null
}

/** A short text for display: entities decoded, control characters gone, whitespace collapsed, ≤ 300 chars. */
export function cleanText(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const decoded = value.includes('&') ? DomUtils.textContent(parseDocument(value)) : value
  const text = decoded
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (text === '') return null
  return Array.from(text).slice(0, MAX_TEXT_CHARS).join('')
}

/** An image URL resolved against the page: https only, ≤ 2000 chars, else null. */
export function cleanImageUrl(value: unknown, pageUrl: URL | null): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null
  const url = URL.parse(value.trim(), pageUrl ?? undefined)
  if (url === null || url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null
  return url.href.length <= MAX_IMAGE_URL_CHARS ? url.href : null
}

/** schema.org availability (full URL or short name) or a shop's own words, as in stock / sold out. */
export function readAvailability(value: unknown): Availability | null {
  if (typeof value !== 'string') return null
  const text = value.normalize('NFKC').trim().toLowerCase()
  const name = text.replace(/^https?:\/\/schema\.org\//, '')
  if (['instock', 'in stock', 'limitedavailability', 'onlineonly', 'instoreonly'].includes(name))
    return 'inStock'
  if (['outofstock', 'out of stock', 'oos', 'soldout', 'sold out', 'discontinued'].includes(name))
    return 'soldOut'
  if (/在庫切れ|売り切れ|品切れ|在庫なし|sold/.test(text)) return 'soldOut'
  if (/在庫あり|在庫有|販売中/.test(text)) return 'inStock'
  return null
}

/** An ISO 8601 instant from a date-time with an offset, else null. */
export function readInstant(value: unknown): string | null {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value.trim())
  ) {
    return null
  }
  const time = Date.parse(value.trim())
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

/** The first element matching the test, anywhere under the nodes. */
export function first(nodes: AnyNode[] | AnyNode, test: (element: Element) => boolean): Element | null {
  return DomUtils.findOne(test, Array.isArray(nodes) ? nodes : [nodes], true)
}

/** Every element matching the test, anywhere under the nodes. */
export function all(nodes: AnyNode[] | AnyNode, test: (element: Element) => boolean): Element[] {
  return DomUtils.findAll(test, Array.isArray(nodes) ? nodes : [nodes])
}

export const byId =
  (id: string) =>
  (element: Element): boolean =>
    element.attribs.id === id

export const byClass =
  (name: string) =>
  (element: Element): boolean =>
    (element.attribs.class ?? '').split(/\s+/).includes(name)

export const byAttribute =
  (name: string, value?: string) =>
  (element: Element): boolean =>
    value === undefined ? name in element.attribs : element.attribs[name] === value

/** The element's text. */
export function textOf(element: Element | null): string | null {
  return element ? DomUtils.textContent(element) : null
}

/** The content of <meta property|name="key">, first match. */
export function metaContent(nodes: AnyNode[], key: string): string | null {
  const meta = first(
    nodes,
    (element) =>
      element.name === 'meta' && (element.attribs.property === key || element.attribs.name === key),
  )
  return meta?.attribs.content ?? null
}
