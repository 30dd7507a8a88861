import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_PAGES, SHOP_SAMPLES } from '#tests/support/shop-stand-in/pages.ts'
import {
  REDIRECT_TARGET,
  type ShopStandIn,
  startShopStandIn,
  TRAP_URLS,
} from '#tests/support/shop-stand-in/server.ts'
import {
  DEFAULT_PREVIEW_HOSTS,
  type FetchPolicy,
  isPreviewable,
  nestedTooDeep,
  previewLink,
} from './link-preview.ts'

// A customer pastes a link from each shop the stand-in models: the preview shows the item. Traps
// say why there is no preview.

let standIn: ShopStandIn
let policy: FetchPolicy

beforeAll(async () => {
  standIn = await startShopStandIn()
  policy = { allowedHosts: DEFAULT_PREVIEW_HOSTS, standIn: { host: '127.0.0.1', port: standIn.port } }
})

afterAll(() => standIn.close())

describe('previewLink', () => {
  it.each(SHOP_SAMPLES.map((sample) => [sample.shop, sample] as const))(
    'shows the title, price and image of a %s item',
    async (_shop, sample) => {
      const outcome = await previewLink(sample.url, policy)
      if (!outcome.ok) throw new Error(`no preview: ${outcome.reason}`)
      expect(outcome.preview).toMatchObject({
        title: sample.title,
        priceYen: sample.priceYen,
        imageUrl: sample.imageUrl,
        url: sample.url,
        finalUrl: sample.url,
        host: new URL(sample.url).hostname,
      })
    },
  )

  it('shows the current price and end time of a Yahoo! Auctions item, with its domestic shipping', async () => {
    const sample = SHOP_SAMPLES.find((candidate) => candidate.shop === 'Yahoo! Auctions')
    const outcome = await previewLink(sample?.url ?? '', policy)
    expect(outcome.ok && outcome.preview).toMatchObject({
      auction: { currentPriceYen: 15000, endsAt: '2026-12-06T13:10:00.000Z' },
      domesticShippingYen: 1200,
    })
  })

  it('shows availability, variant and free shipping where the shop says them', async () => {
    const byShop = async (shop: string) => {
      const outcome = await previewLink(
        SHOP_SAMPLES.find((sample) => sample.shop === shop)?.url ?? '',
        policy,
      )
      return outcome.ok ? outcome.preview : null
    }
    expect(await byShop('Mercari')).toMatchObject({
      availability: 'inStock',
      domesticShippingYen: 0,
      source: 'jsonLd',
    })
    expect(await byShop('Amazon.co.jp')).toMatchObject({
      variant: 'ミントグリーン',
      availability: 'inStock',
      source: 'shop',
    })
    expect(await byShop('ZOZOTOWN')).toMatchObject({ variant: 'チャコールグレー / L' })
    expect(await byShop('Rakuten Ichiba')).toMatchObject({ source: 'microdata' })
    expect(await byShop('Uniqlo')).toMatchObject({ source: 'openGraph' })
  })

  it('follows a short redirect chain to the item and reports where it ended', async () => {
    const outcome = await previewLink(TRAP_URLS.redirect2, policy)
    expect(outcome.ok && outcome.preview).toMatchObject({
      url: TRAP_URLS.redirect2,
      finalUrl: REDIRECT_TARGET.url,
      title: REDIRECT_TARGET.title,
    })
  })

  it('says unreadable for a page without item data', async () => {
    expect(await previewLink(TRAP_URLS.changed, policy)).toEqual({ ok: false, reason: 'unreadable' })
  })

  it('passes on the fetch refusals', async () => {
    expect(await previewLink('https://evil.example/item', policy)).toEqual({
      ok: false,
      reason: 'hostNotAllowed',
    })
    expect(await previewLink(TRAP_URLS.png, policy)).toEqual({ ok: false, reason: 'notHtml' })
    expect(await previewLink(TRAP_URLS.toMetadata, policy)).toEqual({ ok: false, reason: 'hostNotAllowed' })
  })
})

describe('isPreviewable', () => {
  it('accepts https links of the default shops, Uniqlo Japan included', () => {
    for (const sample of SHOP_SAMPLES)
      expect(isPreviewable(sample.url, DEFAULT_PREVIEW_HOSTS), sample.url).toBe(true)
    expect(isPreviewable('https://www.uniqlo.com/jp/ja/products/E1-000/00', DEFAULT_PREVIEW_HOSTS)).toBe(true)
    expect(isPreviewable('https://page.auctions.yahoo.co.jp/jp/auction/x1', DEFAULT_PREVIEW_HOSTS)).toBe(true)
  })

  it('refuses other shops, other schemes and addresses', () => {
    for (const url of [
      'https://www.yahoo.co.jp/',
      'https://example.com/',
      'http://www.amazon.co.jp/dp/B0X',
      'https://127.0.0.1/',
      'https://amazon.co.jp.evil.example/',
      'ftp://zozo.jp/',
      '',
    ]) {
      expect(isPreviewable(url, DEFAULT_PREVIEW_HOSTS), url).toBe(false)
    }
  })
})

describe('a page nested deeper than any real one is not parsed (security review, 2026-11-28)', () => {
  it('counts nesting in one pass: past 1,500 deep a page is refused; real pages and void elements are not', () => {
    expect(nestedTooDeep('<b>'.repeat(200_000))).toBe(true)
    expect(nestedTooDeep('<b>'.repeat(1500))).toBe(false)
    expect(nestedTooDeep('<b>'.repeat(1501))).toBe(true)
    expect(nestedTooDeep(`<div>${'<p>x</p><br><img src="a.png"><input/>'.repeat(50_000)}</div>`)).toBe(false)
    for (const sample of SHOP_SAMPLES) {
      const page = SHOP_PAGES.find((candidate) => candidate.url === sample.url)
      expect(nestedTooDeep(page?.html ?? ''), sample.shop).toBe(false)
    }
  })
})
