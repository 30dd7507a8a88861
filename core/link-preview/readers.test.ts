import { describe, expect, it } from 'vitest'
import {
  cleanImageUrl,
  cleanText,
  readAvailability,
  readInstant,
  readShippingYen,
  readYen,
} from './fields.ts'
import { readItem } from './readers.ts'

// The readers on small pages written here: which source wins, what each source may say, and
// that hostile or odd values come out as null rather than as a guess.

const JP_PAGE = 'https://store.example.jp/item/1'
const COM_PAGE = 'https://shop.example.com/item/1'

const page = (head: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`

describe('readYen', () => {
  it('reads whole yen from numbers and the ways shops write prices', () => {
    expect(readYen(12800)).toBe(12800)
    expect(readYen('12800')).toBe(12800)
    expect(readYen('¥12,800')).toBe(12800)
    expect(readYen('￥12,800')).toBe(12800)
    expect(readYen('12,800円')).toBe(12800)
    expect(readYen('１２,８００円')).toBe(12800)
    expect(readYen(' 1,980円 (税込) ')).toBe(1980)
    expect(readYen('JPY 500')).toBe(500)
    expect(readYen('12800.00')).toBe(12800)
    expect(readYen(99_999_999)).toBe(99_999_999)
  })

  it('answers null for decimals, out-of-range amounts and other text', () => {
    for (const value of [
      '12.5',
      12.5,
      '0',
      0,
      -5,
      '100,000,000',
      100_000_000,
      '$12',
      '12,80',
      'お問い合わせ',
      '',
      null,
    ]) {
      expect(readYen(value), String(value)).toBeNull()
    }
  })

  it('reads free shipping as 0 for a shipping charge', () => {
    expect(readShippingYen('送料無料')).toBe(0)
    expect(readShippingYen('送料 1,200円')).toBe(1200)
    expect(readShippingYen(0)).toBe(0)
    expect(readShippingYen('着払い')).toBeNull()
  })
})

describe('field cleaners', () => {
  it('decodes entities, strips control characters, collapses whitespace and bounds titles', () => {
    expect(cleanText('  Tom &amp; Jerry\u0000\n\t figure  ')).toBe('Tom & Jerry figure')
    expect(cleanText('a\u202eb')).toBe('a b')
    expect(cleanText('   ')).toBeNull()
    expect(cleanText(42)).toBeNull()
    expect(cleanText('あ'.repeat(400))).toHaveLength(300)
  })

  it('keeps only https image URLs, resolved against the page, of bounded length', () => {
    const base = new URL(JP_PAGE)
    expect(cleanImageUrl('/img/a.jpg', base)).toBe('https://store.example.jp/img/a.jpg')
    expect(cleanImageUrl('//cdn.example.jp/a.jpg', base)).toBe('https://cdn.example.jp/a.jpg')
    expect(cleanImageUrl('http://cdn.example.jp/a.jpg', base)).toBeNull()
    expect(cleanImageUrl('javascript:alert(1)', base)).toBeNull()
    expect(cleanImageUrl('data:image/png;base64,AAAA', base)).toBeNull()
    expect(cleanImageUrl(`https://cdn.example.jp/${'a'.repeat(2000)}`, base)).toBeNull()
  })

  it('reads availability and instants', () => {
    expect(readAvailability('https://schema.org/InStock')).toBe('inStock')
    expect(readAvailability('http://schema.org/SoldOut')).toBe('soldOut')
    expect(readAvailability('OutOfStock')).toBe('soldOut')
    expect(readAvailability('PreOrder')).toBeNull()
    expect(readInstant('2026-12-06T22:10:00+09:00')).toBe('2026-12-06T13:10:00.000Z')
    expect(readInstant('2026-12-06 22:10')).toBeNull()
  })
})

describe('readItem', () => {
  it('reads a JSON-LD Product with an offer, an image object and a variant', () => {
    const html = page(
      jsonLd({
        '@context': 'https://schema.org',
        '@type': ['Thing', 'Product'],
        name: 'Figure &amp; stand',
        image: { '@type': 'ImageObject', url: '/p/1.jpg' },
        color: 'Red',
        size: 'M',
        offers: {
          '@type': 'Offer',
          price: '3,300',
          priceCurrency: 'JPY',
          availability: 'https://schema.org/OutOfStock',
          shippingDetails: { shippingRate: { value: '500', currency: 'JPY' } },
        },
      }),
    )
    expect(readItem(html, JP_PAGE)).toEqual({
      title: 'Figure & stand',
      priceYen: 3300,
      imageUrl: 'https://store.example.jp/p/1.jpg',
      availability: 'soldOut',
      variant: 'Red / M',
      domesticShippingYen: 500,
      auction: null,
      source: 'jsonLd',
    })
  })

  it('finds the Product in an array or a @graph and reads an AggregateOffer low price', () => {
    const html = page(
      jsonLd([
        { '@type': 'WebSite' },
        { '@graph': [{ '@type': 'Product', name: 'Box', offers: { lowPrice: 980 } }] },
      ]),
    )
    expect(readItem(html, JP_PAGE)).toMatchObject({ title: 'Box', priceYen: 980, source: 'jsonLd' })
  })

  it('skips malformed JSON-LD and reads the next block', () => {
    const html = page(
      `<script type="application/ld+json">{"@type": "Product", </script>${jsonLd({ '@type': 'Product', name: 'Next' })}`,
    )
    expect(readItem(html, JP_PAGE)?.title).toBe('Next')
  })

  it('takes no price in another currency, nor a price without currency off a Japanese shop', () => {
    const usd = page(jsonLd({ '@type': 'Product', name: 'A', offers: { price: '20', priceCurrency: 'USD' } }))
    expect(readItem(usd, JP_PAGE)?.priceYen).toBeNull()
    const bare = page(jsonLd({ '@type': 'Product', name: 'A', offers: { price: '2000' } }))
    expect(readItem(bare, JP_PAGE)?.priceYen).toBe(2000)
    expect(readItem(bare, COM_PAGE)?.priceYen).toBeNull()
  })

  it('reads microdata when there is no JSON-LD', () => {
    const html = page(
      '',
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name"> Towel  set </h1>
       <img itemprop="image" src="https://img.example.jp/t.jpg">
       <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
       <meta itemprop="priceCurrency" content="JPY"><span itemprop="price">3,980円</span>
       <link itemprop="availability" href="https://schema.org/InStock"></div></div>`,
    )
    expect(readItem(html, JP_PAGE)).toMatchObject({
      title: 'Towel set',
      priceYen: 3980,
      imageUrl: 'https://img.example.jp/t.jpg',
      availability: 'inStock',
      source: 'microdata',
    })
  })

  it('fills the fields JSON-LD lacks from Open Graph, earlier sources winning', () => {
    const html = page(
      `${jsonLd({ '@type': 'Product', name: 'From JSON-LD' })}
       <meta property="og:title" content="From OG"><meta property="og:image" content="https://img.example.jp/og.jpg">
       <meta property="product:price:amount" content="1500"><meta property="product:price:currency" content="JPY">`,
    )
    expect(readItem(html, JP_PAGE)).toMatchObject({
      title: 'From JSON-LD',
      priceYen: 1500,
      imageUrl: 'https://img.example.jp/og.jpg',
      source: 'jsonLd',
    })
  })

  it('reads og:price:amount and refuses a plain-http og:image', () => {
    const html = page(
      `<meta property="og:title" content="OG only"><meta property="og:price:amount" content="¥700">
       <meta property="og:image" content="http://img.example.jp/og.jpg">`,
    )
    expect(readItem(html, JP_PAGE)).toMatchObject({
      title: 'OG only',
      priceYen: 700,
      imageUrl: null,
      source: 'openGraph',
    })
  })

  it('answers null for a page without a title or a price', () => {
    expect(readItem(page('<title>Shop</title>', '<h1>Welcome</h1>'), JP_PAGE)).toBeNull()
    expect(readItem('', JP_PAGE)).toBeNull()
    expect(readItem('<<<>>>&&&', 'not a url')).toBeNull()
  })

  it('reads a Yahoo! Auctions page: current price and end time', () => {
    const html = page(
      '<meta property="og:title" content="Game Boy">',
      `<div class="Price Price--current" data-auction-price="15000"></div><div class="Price__postage">送料無料</div>
       <time class="ProductDetail__endTime" datetime="2026-12-06T22:10:00+09:00"></time>`,
    )
    expect(readItem(html, 'https://auctions.yahoo.co.jp/jp/auction/x1')).toMatchObject({
      title: 'Game Boy',
      priceYen: 15000,
      domesticShippingYen: 0,
      auction: { currentPriceYen: 15000, endsAt: '2026-12-06T13:10:00.000Z' },
    })
  })

  it('uses a shop reader only on its own shop', () => {
    const html = page(
      '',
      '<span id="productTitle">Bottle</span><span class="a-price"><span class="a-offscreen">￥4,980</span></span>',
    )
    expect(readItem(html, 'https://www.amazon.co.jp/dp/B0X')).toMatchObject({
      title: 'Bottle',
      priceYen: 4980,
      source: 'shop',
    })
    expect(readItem(html, JP_PAGE)).toBeNull()
  })
})
