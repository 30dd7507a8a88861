import type { AnyNode, Element } from 'domhandler'
import { DomUtils, parseDocument } from 'htmlparser2'
import {
  type Availability,
  all,
  cleanImageUrl,
  cleanText,
  first,
  metaContent,
  readAvailability,
  readShippingYen,
  readYen,
} from './fields.ts'
import { shopReaderFor } from './shop-readers.ts'

/**
 * Reads the item on a shop's product page: title, price in whole yen, main image, availability,
 * variant, domestic shipping and, for an auction, the current price and end time. Sources, best
 * first: JSON-LD, microdata, Open Graph / product meta, then a small reader for the shop. Earlier
 * sources win per field; later ones fill gaps. Safety: the page is untrusted. It is parsed with
 * htmlparser2 (never regular expressions over HTML), malformed JSON-LD is skipped, every value is
 * cleaned (fields.ts), and nothing here throws on a hostile page.
 */

export type ItemFacts = {
  title: string | null
  priceYen: number | null
  imageUrl: string | null
  availability: Availability | null
  variant: string | null
  domesticShippingYen: number | null
  auction: { currentPriceYen: number; endsAt: string } | null
  source: 'jsonLd' | 'microdata' | 'openGraph' | 'shop'
}

/** What one source found: any subset of the facts. */
export type FoundFacts = Partial<Omit<ItemFacts, 'source'>>

type Source = ItemFacts['source']

const FIELDS = [
  'title',
  'priceYen',
  'imageUrl',
  'availability',
  'variant',
  'domesticShippingYen',
  'auction',
] as const

/** The item on the page, or null when the page has neither a title nor a price. */
export function readItem(html: string, pageUrl: string): ItemFacts | null {
  const page = URL.parse(pageUrl)
  const nodes = parseDocument(html).children
  const found: [Source, FoundFacts][] = [
    ['jsonLd', fromJsonLd(nodes, page)],
    ['microdata', fromMicrodata(nodes, page)],
    ['openGraph', fromOpenGraph(nodes, page)],
    ['shop', (page && shopReaderFor(page)?.(nodes, page)) ?? {}],
  ]
  return merge(found)
}

function merge(found: [Source, FoundFacts][]): ItemFacts | null {
  const facts: ItemFacts = {
    title: null,
    priceYen: null,
    imageUrl: null,
    availability: null,
    variant: null,
    domesticShippingYen: null,
    auction: null,
    source: 'shop',
  }
  const assign = <K extends (typeof FIELDS)[number]>(key: K, value: ItemFacts[K] | undefined) => {
    if (facts[key] === null && value !== undefined && value !== null) facts[key] = value
  }
  let source: Source | null = null
  for (const [name, part] of found) {
    if (source === null && ((part.title ?? null) !== null || (part.priceYen ?? null) !== null)) source = name
    for (const key of FIELDS) assign(key, part[key])
  }
  if (facts.priceYen === null && facts.auction) facts.priceYen = facts.auction.currentPriceYen
  if (source === null || (facts.title === null && facts.priceYen === null)) return null
  return { ...facts, source }
}

// --- JSON-LD ---

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const listOf = (value: Json | undefined): Json[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]

function fromJsonLd(nodes: AnyNode[], page: URL | null): FoundFacts {
  const scripts = all(
    nodes,
    (element) =>
      element.name === 'script' &&
      (element.attribs.type ?? '').trim().toLowerCase() === 'application/ld+json',
  )
  for (const script of scripts) {
    const product = parseJson(DomUtils.textContent(script)).flatMap(flattenGraph).find(isProduct)
    if (product) return readProduct(product, page)
  }
  return {}
}

function parseJson(text: string): Json[] {
  try {
    return [JSON.parse(text) as Json]
  } catch {
    return []
  }
}

/** The nodes of a JSON-LD value: arrays and @graph opened, two levels at most. */
function flattenGraph(value: Json, depth = 0): JsonObject[] {
  if (depth > 2) return []
  if (Array.isArray(value)) return value.flatMap((item) => flattenGraph(item, depth + 1))
  if (!isObject(value)) return []
  return [value, ...listOf(value['@graph']).flatMap((item) => flattenGraph(item, depth + 1))]
}

function isProduct(node: JsonObject): boolean {
  return listOf(node['@type']).some(
    (type) => typeof type === 'string' && ['product', 'productgroup'].includes(type.toLowerCase()),
  )
}

function readProduct(product: JsonObject, page: URL | null): FoundFacts {
  const offer = pickOffer(listOf(product.offers).filter(isObject), page)
  return {
    title: cleanText(product.name),
    imageUrl: listOf(product.image)
      .map((image) => cleanImageUrl(isObject(image) ? (image.url ?? image.contentUrl) : image, page))
      .find((url) => url !== null),
    priceYen: offer?.priceYen ?? null,
    availability: offer?.availability ?? null,
    domesticShippingYen: offer?.shippingYen ?? null,
    variant: variantOf([
      product.color,
      product.size,
      isObject(product.model) ? product.model.name : product.model,
    ]),
  }
}

type OfferFacts = { priceYen: number | null; availability: Availability | null; shippingYen: number | null }

/** The first offer in yen (JPY, or no currency on a Japanese shop) with a readable price. */
function pickOffer(offers: JsonObject[], page: URL | null): OfferFacts | null {
  for (const offer of offers) {
    const currency = typeof offer.priceCurrency === 'string' ? offer.priceCurrency.trim().toUpperCase() : null
    if (currency === null ? !isJapaneseShop(page) : currency !== 'JPY') continue
    const priceYen = readYen(offer.price) ?? readYen(offer.lowPrice)
    if (priceYen === null) continue
    return { priceYen, availability: readAvailability(offer.availability), shippingYen: shippingOf(offer) }
  }
  return null
}

function shippingOf(offer: JsonObject): number | null {
  for (const details of listOf(offer.shippingDetails).filter(isObject)) {
    const rate = details.shippingRate
    if (!isObject(rate)) continue
    const currency = typeof rate.currency === 'string' ? rate.currency.toUpperCase() : 'JPY'
    if (currency === 'JPY') return readShippingYen(rate.value)
  }
  return null
}

/** A .jp shop, or a shop's Japanese site (jp.mercari.com, www.uniqlo.com/jp/…). */
function isJapaneseShop(page: URL | null): boolean {
  if (page === null) return false
  return page.hostname.endsWith('.jp') || page.hostname.startsWith('jp.') || page.pathname.startsWith('/jp/')
}

function variantOf(parts: (Json | undefined)[]): string | null {
  const texts = parts.map((part) => cleanText(part)).filter((text) => text !== null)
  return texts.length > 0 ? cleanText(texts.join(' / ')) : null
}

// --- Microdata ---

function fromMicrodata(nodes: AnyNode[], page: URL | null): FoundFacts {
  const product = first(nodes, (element) =>
    /schema\.org\/Product$/i.test(element.attribs.itemtype?.trim() ?? ''),
  )
  if (!product) return {}
  const prop = (name: string) => {
    const element = first(product.children, (child) =>
      (child.attribs.itemprop ?? '').split(/\s+/).includes(name),
    )
    return element ? itemValue(element) : null
  }
  const currency = prop('priceCurrency')?.trim().toUpperCase() ?? null
  const yenOk = currency === null ? isJapaneseShop(page) : currency === 'JPY'
  return {
    title: cleanText(prop('name')),
    priceYen: yenOk ? readYen(prop('price')) : null,
    imageUrl: cleanImageUrl(prop('image'), page),
    availability: readAvailability(prop('availability')),
    variant: variantOf([prop('color'), prop('size')]),
  }
}

/** A microdata property's value, by the element's kind. */
function itemValue(element: Element): string {
  const { attribs } = element
  if (attribs.content !== undefined) return attribs.content
  if (['img', 'audio', 'video', 'source', 'iframe', 'embed'].includes(element.name)) return attribs.src ?? ''
  if (['a', 'link', 'area'].includes(element.name)) return attribs.href ?? ''
  if (['data', 'meter'].includes(element.name)) return attribs.value ?? ''
  return DomUtils.textContent(element)
}

// --- Open Graph and product meta ---

function fromOpenGraph(nodes: AnyNode[], page: URL | null): FoundFacts {
  const meta = (key: string) => metaContent(nodes, key)
  const priced = (amountKey: string, currencyKey: string) => {
    const currency = meta(currencyKey)?.trim().toUpperCase() ?? null
    const yenOk = currency === null ? isJapaneseShop(page) : currency === 'JPY'
    return yenOk ? readYen(meta(amountKey)) : null
  }
  return {
    title: cleanText(meta('og:title')),
    imageUrl: cleanImageUrl(meta('og:image:secure_url') ?? meta('og:image'), page),
    priceYen:
      priced('product:price:amount', 'product:price:currency') ??
      priced('og:price:amount', 'og:price:currency'),
    availability: readAvailability(meta('product:availability') ?? meta('og:availability')),
  }
}
