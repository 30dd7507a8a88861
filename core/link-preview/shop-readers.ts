import type { AnyNode } from 'domhandler'
import {
  byAttribute,
  byClass,
  byId,
  cleanImageUrl,
  cleanText,
  first,
  metaContent,
  readAvailability,
  readInstant,
  readShippingYen,
  readYen,
  textOf,
} from './fields.ts'
import type { FoundFacts } from './readers.ts'

/**
 * Small readers for shops whose product pages carry no JSON-LD, microdata or product meta, keyed
 * by host. Each reads a few stable ids, classes or attributes of that shop's page (as modelled
 * in tests/support/shop-stand-in/pages.ts) and nothing else; every value goes through the same
 * cleaners as the structured sources, so a changed page reads as nothing rather than as garbage.
 */

export type ShopReader = (nodes: AnyNode[], page: URL) => FoundFacts

/** Amazon.co.jp: #productTitle, the first .a-price .a-offscreen, #landingImage, #availability. */
const amazon: ShopReader = (nodes, page) => {
  const priceBox = first(nodes, byClass('a-price'))
  const price = priceBox
    ? first(priceBox.children, byClass('a-offscreen'))
    : first(nodes, byId('priceblock_ourprice'))
  const image = first(nodes, byId('landingImage'))
  const variant = first(nodes, byId('variation_color_name'))
  return {
    title: cleanText(textOf(first(nodes, byId('productTitle')))),
    priceYen: readYen(textOf(price)?.trim()),
    imageUrl: cleanImageUrl(image?.attribs['data-old-hires'] || image?.attribs.src, page),
    availability: readAvailability(textOf(first(nodes, byId('availability')))),
    variant: cleanText(textOf(variant ? first(variant.children, byClass('selection')) : null)),
  }
}

/** Yahoo! Auctions: og:title/og:image, the current price and the end time (<time datetime>). */
const yahooAuctions: ShopReader = (nodes, page) => {
  const current = readYen(first(nodes, byAttribute('data-auction-price'))?.attribs['data-auction-price'])
  const endsAt = readInstant(first(nodes, byClass('ProductDetail__endTime'))?.attribs.datetime)
  return {
    title: cleanText(metaContent(nodes, 'og:title')),
    imageUrl: cleanImageUrl(metaContent(nodes, 'og:image'), page),
    domesticShippingYen: readShippingYen(textOf(first(nodes, byClass('Price__postage')))?.trim()),
    auction: current !== null && endsAt !== null ? { currentPriceYen: current, endsAt } : null,
  }
}

/** Suruga-ya: #item_title, .text-price-detail, the main picture, the stock note. */
const surugaYa: ShopReader = (nodes, page) => {
  const picture = first(nodes, byClass('main-pro-img'))
  return {
    title: cleanText(textOf(first(nodes, byId('item_title')))),
    priceYen: readYen(textOf(first(nodes, byClass('text-price-detail')))?.trim()),
    imageUrl: cleanImageUrl(
      picture ? first(picture.children, (element) => element.name === 'img')?.attribs.src : null,
      page,
    ),
    availability: readAvailability(textOf(first(nodes, byClass('stock-status')))),
  }
}

/** Mandarake: .subject h1, .price p, .pic img, a .soldout mark or an add-to-cart button. */
const mandarake: ShopReader = (nodes, page) => {
  const subject = first(nodes, byClass('subject'))
  const price = first(nodes, byClass('price'))
  const picture = first(nodes, byClass('pic'))
  const soldOut = first(nodes, byClass('soldout')) !== null
  const inCart = first(nodes, byClass('addcart')) !== null
  return {
    title: cleanText(textOf(subject ? first(subject.children, (element) => element.name === 'h1') : null)),
    priceYen: readYen(
      textOf(price ? first(price.children, (element) => element.name === 'p') : null)?.trim(),
    ),
    imageUrl: cleanImageUrl(
      picture ? first(picture.children, (element) => element.name === 'img')?.attribs.src : null,
      page,
    ),
    availability: soldOut ? 'soldOut' : inCart ? 'inStock' : null,
  }
}

const READERS: readonly [string, ShopReader][] = [
  ['amazon.co.jp', amazon],
  ['auctions.yahoo.co.jp', yahooAuctions],
  ['suruga-ya.jp', surugaYa],
  ['mandarake.co.jp', mandarake],
]

/** The reader for the page's shop (its host or a parent domain), if there is one. */
export function shopReaderFor(page: URL | null): ShopReader | null {
  if (page === null) return null
  const host = page.hostname.toLowerCase().replace(/\.$/, '')
  return READERS.find(([shop]) => host === shop || host.endsWith(`.${shop}`))?.[1] ?? null
}
