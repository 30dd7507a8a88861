import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { SHOP_SAMPLES } from '#tests/support/shop-stand-in/pages.ts'
import { type ShopStandIn, startShopStandIn, TRAP_URLS } from '#tests/support/shop-stand-in/server.ts'
import { type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// GET /api/v1/link-preview and its photos through the running server (issue 31), reading the
// local shop stand-in (LINK_PREVIEW_STAND_IN) instead of the shops: every refusal is counted at
// the stand-in, so "nothing fetched" is proven, not assumed.
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let shops: ShopStandIn

beforeAll(async () => {
  shops = await startShopStandIn()
  ;({ server, database } = await startAppOnTestDatabase({
    LINK_PREVIEW_STAND_IN: `127.0.0.1:${shops.port}`,
    TRUST_PROXY: '1',
  }))
})

afterAll(async () => {
  await shops.close()
})

let address = 0
/** Each test its own client address, so the per-address limit is each test's own. */
function asVisitor(extra: Record<string, string> = {}) {
  address++
  return { 'x-forwarded-for': `198.51.100.${address}`, ...extra }
}

async function preview(url: string, headers: Record<string, string> = asVisitor()) {
  const response = await fetch(`${server.url}/api/v1/link-preview?url=${encodeURIComponent(url)}`, {
    headers,
  })
  return { response, body: (await response.json()) as Record<string, unknown> }
}

describe('a link of each covered shop reads as its item', () => {
  for (const sample of SHOP_SAMPLES) {
    test(sample.shop, async () => {
      const { response, body } = await preview(sample.url)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      expect(body.status).toBe('read')
      const read = body.preview as { title: string; priceYen: number; imageUrl: string | null }
      expect(read.title).toBe(sample.title)
      expect(read.priceYen).toBe(sample.priceYen)
      // The photo is served from this site, never linked from the shop.
      expect(read.imageUrl).toBe(
        `/api/v1/link-preview/image?url=${encodeURIComponent(sample.imageUrl ?? '')}`,
      )
    })
  }
})

test('a link pasted twice within the hour is fetched once', async () => {
  const sample = SHOP_SAMPLES[1]
  if (!sample) throw new Error('no sample')
  await preview(sample.url)
  const before = shops.requests()
  const again = await preview(sample.url)
  expect(again.body.status).toBe('read')
  expect(shops.requests()).toBe(before)
})

test('links the site must not read answer "unread" with nothing fetched', async () => {
  const before = shops.requests()
  for (const url of [
    'https://example.com/item/1',
    'http://jp.mercari.com/item/m1',
    'https://127.0.0.1/item',
    'https://169.254.169.254/latest/meta-data/',
    'https://user:pass@jp.mercari.com/item/m1',
    'https://jp.mercari.com:8443/item/m1',
    'https://mercari.com.evil.example/item',
    'https://[::1]/item',
  ]) {
    const { response, body } = await preview(url)
    expect(response.status, url).toBe(200)
    expect(body, url).toEqual({ status: 'unread' })
  }
  expect(shops.requests()).toBe(before)
})

test('a redirect off the allow-list or into a private address, a slow, huge, or non-page answer: "unread"', async () => {
  for (const url of [
    TRAP_URLS.toLoopback,
    TRAP_URLS.toEvil,
    TRAP_URLS.toMetadata,
    TRAP_URLS.redirect4,
    TRAP_URLS.huge,
    TRAP_URLS.png,
    TRAP_URLS.json,
    TRAP_URLS.changed,
    TRAP_URLS.notFound,
  ]) {
    const { response, body } = await preview(url)
    expect(response.status, url).toBe(200)
    expect(body, url).toEqual({ status: 'unread' })
  }
  // A chain of two redirects ends on a product, and reads.
  expect((await preview(TRAP_URLS.redirect2)).body.status).toBe('read')
})

test('not a link: a translated 400 in the visitor’s language', async () => {
  for (const query of [
    '',
    '?url=',
    `?url=${'a'.repeat(2001)}`,
    '?url[]=x',
    '?url=a&url=b',
    '?url=https://jp.mercari.com/%01x',
    '?url=https://jp.mercari.com/%0Ax',
  ]) {
    const response = await fetch(`${server.url}/api/v1/link-preview${query}`, {
      headers: asVisitor({ cookie: 'lang=en' }),
    })
    expect(response.status, query).toBe(400)
    const body = (await response.json()) as { error: { message: string } }
    expect(body.error.message, query).toBe('Send the link of a product page, at most 2,000 characters.')
  }
  // A NUL anywhere in the address is refused before any route (the hostile-input guard).
  const nul = await fetch(`${server.url}/api/v1/link-preview?url=https://jp.mercari.com/%00x`, {
    headers: asVisitor({ cookie: 'lang=en' }),
  })
  expect(nul.status).toBe(400)
  const spanish = await fetch(`${server.url}/api/v1/link-preview`, {
    headers: asVisitor({ cookie: 'lang=es' }),
  })
  expect(((await spanish.json()) as { error: { message: string } }).error.message).toBe(
    'Envía el enlace de la página de un producto, de máximo 2000 caracteres.',
  )
})

test('another site’s page cannot ask (Sec-Fetch-Site: cross-site): 403, nothing fetched', async () => {
  const before = shops.requests()
  const sample = SHOP_SAMPLES[2]
  if (!sample) throw new Error('no sample')
  const { response } = await preview(sample.url, asVisitor({ 'sec-fetch-site': 'cross-site' }))
  expect(response.status).toBe(403)
  expect(shops.requests()).toBe(before)
})

test('the photo a page named is served as a small WebP from this site; any other address is 404', async () => {
  const sample = SHOP_SAMPLES.find((candidate) => candidate.imageUrl)
  if (!sample?.imageUrl) throw new Error('no sample with a photo')
  const { body } = await preview(sample.url)
  const path = (body.preview as { imageUrl: string }).imageUrl
  const photo = await fetch(`${server.url}${path}`, { headers: asVisitor() })
  expect(photo.status).toBe(200)
  expect(photo.headers.get('content-type')).toBe('image/webp')
  const bytes = new Uint8Array(await photo.arrayBuffer())
  expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('WEBP')

  const before = shops.requests()
  for (const other of ['https://static.mercdn.net/other.jpg', 'https://169.254.169.254/x.png', '']) {
    const refused = await fetch(`${server.url}/api/v1/link-preview/image?url=${encodeURIComponent(other)}`, {
      headers: asVisitor(),
    })
    expect(refused.status, other).toBe(404)
  }
  expect(shops.requests()).toBe(before)
})

test('a signed-in customer is limited per account across addresses; a visitor per address: 429 with Retry-After', async () => {
  await insertPasswordAccount(database.pool, {
    email: 'preview-limit@example.com',
    password: 'correct horse battery',
    name: 'Many Links',
  })
  const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...asVisitor() },
    body: JSON.stringify({ email: 'preview-limit@example.com', password: 'correct horse battery' }),
  })
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  // 60 different links (none cached) from 60 addresses: the 61st is over the account's limit.
  const statuses: number[] = []
  for (let index = 0; index < 61; index++) {
    const { response } = await preview(
      `https://jp.mercari.com/trap/not-found?n=${index}`,
      asVisitor({ cookie }),
    )
    statuses.push(response.status)
  }
  expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true)
  expect(statuses[60]).toBe(429)

  const visitor = asVisitor()
  let last: Awaited<ReturnType<typeof preview>> | null = null
  for (let index = 0; index < 41; index++) {
    last = await preview(`https://jp.mercari.com/trap/not-found?v=${index}`, visitor)
  }
  if (!last) throw new Error('no answer')
  expect(last.response.status).toBe(429)
  expect(Number(last.response.headers.get('retry-after'))).toBeGreaterThan(0)
  // In the visitor's language (Spanish, the default).
  expect((last.body as { error: { message: string } }).error.message).toBe(
    'Leímos muchos enlaces en poco tiempo. Escribe el precio tú mismo o inténtalo de nuevo en unos minutos.',
  )
})
