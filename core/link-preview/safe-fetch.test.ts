import type { LookupAddress } from 'node:dns'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_SAMPLES } from '#tests/support/shop-stand-in/pages.ts'
import { encode, type ShopStandIn, startShopStandIn, TRAP_URLS } from '#tests/support/shop-stand-in/server.ts'
import { DEFAULT_PREVIEW_HOSTS } from './link-preview.ts'
import { decodeHtml, type FetchPolicy, fetchShopPage, type LookupFn } from './safe-fetch.ts'
import { checkShopUrl } from './shop-url.ts'

// The fetch runs against the shop stand-in (real HTTP on 127.0.0.1); the address checks run with a
// lookup that makes an allow-listed shop resolve to a private address, and must refuse before
// any connection (the stand-in's request count proves nothing was fetched).

let standIn: ShopStandIn
let policy: FetchPolicy

beforeAll(async () => {
  standIn = await startShopStandIn()
  policy = { allowedHosts: DEFAULT_PREVIEW_HOSTS, standIn: { host: '127.0.0.1', port: standIn.port } }
})

afterAll(() => standIn.close())

/** A lookup that answers with these addresses and counts its calls. */
function resolvingTo(...addresses: string[]): LookupFn & { calls: string[] } {
  const calls: string[] = []
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname)
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(lookup, { calls })
}

describe('checkShopUrl', () => {
  const hosts = DEFAULT_PREVIEW_HOSTS

  it('accepts https URLs on an allowed shop or its subdomains', () => {
    expect(checkShopUrl('https://jp.mercari.com/item/m1', hosts)).toMatchObject({
      ok: true,
      host: 'jp.mercari.com',
    })
    expect(checkShopUrl('https://mercari.com/', hosts).ok).toBe(true)
    expect(checkShopUrl('  https://WWW.Amazon.co.jp./dp/B0X  ', hosts)).toMatchObject({
      ok: true,
      host: 'www.amazon.co.jp',
    })
    expect(checkShopUrl('https://www.uniqlo.com:443/jp/ja/products/E1/00', hosts).ok).toBe(true)
  })

  it('refuses what is not a URL, a scheme other than https, userinfo and other ports', () => {
    expect(checkShopUrl('not a url', hosts)).toEqual({ ok: false, reason: 'invalidUrl' })
    expect(checkShopUrl('http://jp.mercari.com/item/m1', hosts)).toEqual({ ok: false, reason: 'scheme' })
    expect(checkShopUrl('file:///etc/passwd', hosts)).toEqual({ ok: false, reason: 'scheme' })
    expect(checkShopUrl('javascript:alert(1)', hosts)).toEqual({ ok: false, reason: 'scheme' })
    expect(checkShopUrl('https://user:pass@jp.mercari.com/', hosts)).toEqual({
      ok: false,
      reason: 'invalidUrl',
    })
    expect(checkShopUrl('https://jp.mercari.com@evil.example/', hosts)).toEqual({
      ok: false,
      reason: 'invalidUrl',
    })
    expect(checkShopUrl('https://jp.mercari.com:8443/', hosts)).toEqual({ ok: false, reason: 'invalidUrl' })
  })

  it('refuses hosts off the allow-list, look-alikes and IP literals', () => {
    for (const url of [
      'https://evil.example/',
      'https://mercari.com.evil.example/',
      'https://evilmercari.com/',
      'https://127.0.0.1/',
      'https://2130706433/',
      'https://0x7f.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/',
    ]) {
      expect(checkShopUrl(url, hosts), url).toEqual({ ok: false, reason: 'hostNotAllowed' })
    }
  })
})

describe('fetchShopPage against the shop stand-in', () => {
  it('fetches a product page and says where it ended', async () => {
    const sample = SHOP_SAMPLES[0]
    if (!sample) throw new Error('no samples')
    const outcome = await fetchShopPage(sample.url, policy)
    expect(outcome.ok && outcome.finalUrl).toBe(sample.url)
    expect(outcome.ok && outcome.html).toContain(sample.title)
  })

  it('decodes a Shift_JIS page (declared in its meta) and an EUC-JP page (declared in the header)', async () => {
    const surugaYa = SHOP_SAMPLES.find((sample) => sample.shop === 'Suruga-ya')
    const rakuten = SHOP_SAMPLES.find((sample) => sample.shop === 'Rakuten Ichiba')
    for (const sample of [surugaYa, rakuten]) {
      if (!sample) throw new Error('missing sample')
      const outcome = await fetchShopPage(sample.url, policy)
      expect(outcome.ok && outcome.html).toContain(sample.title)
    }
  })

  it('follows two redirects to the product', async () => {
    const outcome = await fetchShopPage(TRAP_URLS.redirect2, policy)
    expect(outcome.ok && outcome.finalUrl).toBe(SHOP_SAMPLES[0]?.url)
  })

  it('refuses a fourth redirect', async () => {
    expect(await fetchShopPage(TRAP_URLS.redirect4, policy)).toEqual({
      ok: false,
      reason: 'tooManyRedirects',
    })
    expect(await fetchShopPage(TRAP_URLS.redirect2, { ...policy, maxRedirects: 1 })).toEqual({
      ok: false,
      reason: 'tooManyRedirects',
    })
  })

  it('refuses redirects to plain http, off the allow-list and to the metadata address, without requesting them', async () => {
    for (const [url, reason] of [
      [TRAP_URLS.toLoopback, 'scheme'],
      [TRAP_URLS.toEvil, 'hostNotAllowed'],
      [TRAP_URLS.toMetadata, 'hostNotAllowed'],
    ] as const) {
      const before = standIn.requests()
      expect(await fetchShopPage(url, policy), url).toEqual({ ok: false, reason })
      expect(standIn.requests() - before, url).toBe(1)
    }
  })

  it('gives up on a slow page at the deadline', async () => {
    const started = Date.now()
    expect(await fetchShopPage(TRAP_URLS.slow, { ...policy, timeoutMs: 500 })).toEqual({
      ok: false,
      reason: 'timeout',
    })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('stops reading a page over the byte limit, streamed or declared', async () => {
    expect(await fetchShopPage(TRAP_URLS.huge, policy)).toEqual({ ok: false, reason: 'tooLarge' })
    expect(await fetchShopPage(TRAP_URLS.hugeDeclared, policy)).toEqual({ ok: false, reason: 'tooLarge' })
    const sample = SHOP_SAMPLES[0]
    if (!sample) throw new Error('no samples')
    expect(await fetchShopPage(sample.url, { ...policy, maxBytes: 100 })).toEqual({
      ok: false,
      reason: 'tooLarge',
    })
  })

  it('refuses what is not HTML and a non-2xx answer', async () => {
    expect(await fetchShopPage(TRAP_URLS.png, policy)).toEqual({ ok: false, reason: 'notHtml' })
    expect(await fetchShopPage(TRAP_URLS.json, policy)).toEqual({ ok: false, reason: 'notHtml' })
    expect(await fetchShopPage(TRAP_URLS.notFound, policy)).toEqual({ ok: false, reason: 'httpStatus' })
  })

  it('refuses a bad URL before any request', async () => {
    const before = standIn.requests()
    for (const url of [
      'http://jp.mercari.com/item/m1',
      'https://evil.example/',
      'https://127.0.0.1/',
      '%%',
    ]) {
      expect((await fetchShopPage(url, policy)).ok, url).toBe(false)
    }
    expect(standIn.requests()).toBe(before)
  })
})

describe('fetchShopPage address checks', () => {
  const realPolicy: FetchPolicy = { allowedHosts: DEFAULT_PREVIEW_HOSTS, timeoutMs: 2000 }

  it('refuses an allowed shop that resolves to a private, loopback or metadata address', async () => {
    const before = standIn.requests()
    for (const address of ['127.0.0.1', '10.0.0.5', '169.254.169.254', '::1', '::ffff:127.0.0.1']) {
      const lookup = resolvingTo(address)
      expect(await fetchShopPage('https://jp.mercari.com/item/m1', realPolicy, { lookup }), address).toEqual({
        ok: false,
        reason: 'privateAddress',
      })
      expect(lookup.calls).toEqual(['jp.mercari.com'])
    }
    expect(standIn.requests()).toBe(before)
  })

  it('refuses when any one of the addresses is private', async () => {
    const lookup = resolvingTo('8.8.8.8', '192.168.0.10')
    expect(await fetchShopPage('https://www.amazon.co.jp/dp/B0X', realPolicy, { lookup })).toEqual({
      ok: false,
      reason: 'privateAddress',
    })
  })

  it('says network when the name does not resolve', async () => {
    const lookup: LookupFn = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })
    }
    expect(await fetchShopPage('https://www.amazon.co.jp/dp/B0X', realPolicy, { lookup })).toEqual({
      ok: false,
      reason: 'network',
    })
    expect(
      await fetchShopPage('https://www.amazon.co.jp/dp/B0X', realPolicy, { lookup: resolvingTo() }),
    ).toEqual({
      ok: false,
      reason: 'network',
    })
  })
})

describe('decodeHtml', () => {
  it('reads UTF-8 unless the Content-Type or the meta charset says Shift_JIS or EUC-JP', () => {
    const text = '<p>駿河屋 ５００円</p>'
    expect(decodeHtml(encode(text, 'utf-8'), 'text/html')).toBe(text)
    expect(decodeHtml(encode(text, 'shift_jis'), 'text/html; charset=Shift_JIS')).toBe(text)
    expect(decodeHtml(encode(text, 'euc-jp'), 'text/html; charset="euc-jp"')).toBe(text)
    const withMeta = `<meta charset="windows-31j">${text}`
    expect(decodeHtml(encode(withMeta, 'shift_jis'), 'text/html')).toBe(withMeta)
  })
})
