import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createSettingsService } from '#core/settings/settings-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { freePort, nonces, type ServerProcess, startServer } from './server-process.ts'

// The production server against its own database through DATABASE_URL (no embedded process).
let server: ServerProcess
let database: Awaited<ReturnType<typeof createTestDatabase>>
let dataDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-data-'))
  // APP_URL known before the start: form posts (consent) are accepted only from its origin.
  const port = await freePort()
  server = await startServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PAGE_CACHE_TTL_SECONDS: '600',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
  })
})

afterAll(async () => {
  expect(await server?.stop()).toBe(0)
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const get = (pathname: string, init?: RequestInit) =>
  fetch(`${server.url}${pathname}`, { redirect: 'manual', ...init })

test('with DATABASE_URL no embedded PostgreSQL is started', () => {
  expect(fs.existsSync(path.join(dataDir, 'postgres'))).toBe(false)
  expect(server.output()).toContain('Database: DATABASE_URL')
})

test('every response carries the security headers and no X-Powered-By', async () => {
  const response = await get('/')
  expect(response.status).toBe(200)
  expect(response.headers.get('x-powered-by')).toBeNull()
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  expect(response.headers.get('x-frame-options')).toBe('DENY')
  // APP_URL is plain http here: no HSTS (it is sent for an https site, see security-headers.test.ts).
  expect(response.headers.get('strict-transport-security')).toBeNull()
  expect(response.headers.get('x-request-id')).toMatch(/^[\w-]+$/)
  const csp = response.headers.get('content-security-policy') ?? ''
  for (const directive of [
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "'strict-dynamic'",
  ]) {
    expect(csp).toContain(directive)
  }
  expect(csp).not.toContain('unsafe-inline')
})

test('each response, cached or not, has its own nonce on every script', async () => {
  const first = await get('/services')
  const second = await get('/services')
  expect(second.headers.get('x-page-cache')).toBe('HIT')
  const a = nonces(await first.text(), first.headers.get('content-security-policy'))
  const b = nonces(await second.text(), second.headers.get('content-security-policy'))
  expect(a.inHtml.length).toBeGreaterThan(0)
  expect(new Set(a.inHtml)).toEqual(new Set([a.inHeader]))
  expect(new Set(b.inHtml)).toEqual(new Set([b.inHeader]))
  expect(a.inHeader).not.toBe(b.inHeader)
})

test('a cached page is sent pre-compressed when gzip is accepted, and decodes to the page with its nonce', async () => {
  await get('/store-guide', { headers: { 'accept-encoding': 'gzip' } })
  const hit = await get('/store-guide', { headers: { 'accept-encoding': 'gzip' } })
  expect(hit.headers.get('x-page-cache')).toBe('HIT')
  expect(hit.headers.get('content-encoding')).toBe('gzip')
  const html = await hit.text()
  expect(html).toContain('<html lang="es"')
  expect(html.trimEnd().endsWith('</html>')).toBe(true)
  const { inHtml, inHeader } = nonces(html, hit.headers.get('content-security-policy'))
  expect(new Set(inHtml)).toEqual(new Set([inHeader]))

  const identity = await get('/store-guide', { headers: { 'accept-encoding': 'identity' } })
  expect(identity.headers.get('content-encoding')).toBeNull()
  expect((await identity.text()).length).toBeGreaterThan(html.length - 100)
})

test('a cache hit answered in front of Express has the headers of the full path, its own nonce and request id', async () => {
  const headers = { 'accept-encoding': 'gzip', cookie: 'lang=en; currency=USD' }
  await get('/services', { headers })
  // gzip goes through the fast path; identity through Express, the log and the compression.
  const fast = await get('/services', { headers: { ...headers, 'x-request-id': 'fast-path.1' } })
  const full = await get('/services', { headers: { ...headers, 'accept-encoding': 'identity' } })
  expect(fast.headers.get('x-page-cache')).toBe('HIT')
  expect(full.headers.get('x-page-cache')).toBe('HIT')
  expect(fast.headers.get('x-request-id')).toBe('fast-path.1')
  // res.send adds an ETag to the plain answer (the gzip one never had one: each body differs).
  const comparable = (response: Response) =>
    [...response.headers.entries()]
      .filter(
        ([name]) => !['content-encoding', 'content-length', 'date', 'etag', 'x-request-id'].includes(name),
      )
      .map(([name, value]) => [name, value.replaceAll(/'nonce-[^']+'/g, "'nonce-…'")])
  expect(comparable(fast)).toEqual(comparable(full))
  expect(fast.headers.get('vary')).toBe('Cookie, Accept-Encoding')
  const { inHtml, inHeader } = nonces(await fast.text(), fast.headers.get('content-security-policy'))
  expect(new Set(inHtml)).toEqual(new Set([inHeader]))
  expect(inHeader).not.toBe(nonces(await full.text(), full.headers.get('content-security-policy')).inHeader)
  const flash = await get('/services', { headers: { ...headers, cookie: 'lang=en; currency=USD; flash=x' } })
  expect(flash.headers.get('x-page-cache')).toBeNull()
})

test('Spanish by default; ?lang=en renders English and remembers it in a cookie', async () => {
  const spanish = await (await get('/')).text()
  expect(spanish).toContain('<html lang="es"')

  const english = await get('/?lang=en')
  expect(await english.text()).toContain('<html lang="en"')
  const cookie = english.headers.get('set-cookie') ?? ''
  expect(cookie).toMatch(/^lang=en;/)
  expect(cookie).toContain('HttpOnly')
  expect(cookie).toContain('SameSite=Lax')

  const remembered = await get('/contact', { headers: { cookie: 'lang=en' } })
  expect(await remembered.text()).toContain('<html lang="en"')
})

test('the currency choice is remembered and the pricing block shows it', async () => {
  const response = await get('/?currency=usd', { headers: { cookie: 'lang=en' } })
  expect(response.headers.get('set-cookie')).toMatch(/^currency=USD;/)
  expect(await response.text()).toMatch(/approx\. USD\u00a03\.40/)
})

test('an unknown path is a 404 page in the visitor language, and the attempt is logged', async () => {
  const spanish = await get('/no/such/page?x=1')
  expect(spanish.status).toBe(404)
  expect(await spanish.text()).toContain('¡Ups! Página no encontrada')
  const english = await get('/no/such/page', { headers: { cookie: 'lang=en' } })
  expect(english.status).toBe(404)
  const html = await english.text()
  expect(html).toContain('Oops! Page not found')
  expect(html).toContain('href="/"')
  await vi.waitFor(() =>
    expect(server.logs()).toContainEqual(
      expect.objectContaining({ event: 'page_not_found', path: '/no/such/page' }),
    ),
  )
})

test('unknown API paths answer JSON 404; bad JSON is a 400, not a 500', async () => {
  const missing = await get('/api/nothing-here')
  expect(missing.status).toBe(404)
  expect(missing.headers.get('content-type')).toMatch(/application\/json/)
  expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } })

  const malformed = await get('/api/nothing-here', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"broken": ',
  })
  expect(malformed.status).toBe(400)
  expect(await malformed.json()).toMatchObject({ error: { code: 'invalid' } })

  const huge = await get('/api/nothing-here', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'x'.repeat(200_000) }),
  })
  expect(huge.status).toBe(413)
})

test('oversized form posts are refused with a translated message before anything reads them', async () => {
  const response = await get('/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'lang=en' },
    body: `message=${'x'.repeat(1_100_000)}`,
  })
  expect(response.status).toBe(413)
  expect(await response.text()).toBe('The data sent is too large.')
})

test('a malformed address is a client error, never a 500', async () => {
  const response = await get('/%E0%A4%A')
  expect(response.status).toBeGreaterThanOrEqual(400)
  expect(response.status).toBeLessThan(500)
})

test('hostile calculator queries are answered with messages, never a 500 or reflected markup', async () => {
  const query = new URLSearchParams({
    price: '<script>alert(1)</script>',
    region: 'mars',
    method: 'teleport',
    weight: '-1e99',
    country: '../../etc/passwd',
    qprice: '9'.repeat(500),
    qcount: '-3',
    qmethod: 'express',
    qweight: '12.5',
    lang: 'en',
  })
  const response = await get(`/calculator?${query}`)
  expect(response.status).toBe(200)
  const html = await response.text()
  expect(html).not.toContain('<script>alert(1)</script>')
  expect(html).toContain('Enter the price as a number of yen')
  expect(html).toContain('Enter from 1 to 99 items.')
  // "-1e99" is no way people write grams (ADR 013): refused as not a number.
  expect(html).toContain('Enter the weight as a number of grams.')
})

test('the consent form only returns to pages of this site and refuses unknown choices', async () => {
  const answer = (fields: Record<string, string>) =>
    get('/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams(fields),
    })
  const granted = await answer({ choice: 'granted', returnTo: '/services?lang=en' })
  expect(granted.status).toBe(302)
  expect(granted.headers.get('location')).toBe('/services?lang=en')
  expect(granted.headers.get('set-cookie')).toMatch(/^consent=granted;.*HttpOnly/)
  for (const returnTo of [
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example',
    '/\t/evil.example',
    '/.//evil.example',
  ]) {
    expect((await answer({ choice: 'denied', returnTo })).headers.get('location')).toBe('/')
  }
  expect((await answer({ choice: 'maybe' })).status).toBe(400)
  expect((await get('/consent')).status).toBe(404)
})

test('a one-shot message is consumed by the page that shows it, not by route discovery', async () => {
  const discovery = await get('/__manifest?paths=%2F&version=x', { headers: { cookie: 'flash=signedIn' } })
  expect(discovery.headers.getSetCookie().some((cookie) => cookie.startsWith('flash='))).toBe(false)
  const page = await get('/?lang=en', { headers: { cookie: 'flash=signedIn' } })
  expect(page.headers.getSetCookie()).toContain('flash=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax')
  expect(await page.text()).toContain('Welcome back!')
  expect(page.headers.get('x-page-cache')).toBeNull()
})

test('the development outbox does not exist in production', async () => {
  expect((await get('/dev/outbox')).status).toBe(404)
})

test('health and readiness', async () => {
  expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' })
  expect(await (await get('/readyz')).json()).toEqual({ status: 'ready' })
})

test('hashed assets are cached for a year; pages are not', async () => {
  // The public pages inline their stylesheet (ADR 044); the sign-in page links it.
  const html = await (await get('/auth')).text()
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]
  expect(asset).toBeDefined()
  const response = await get(asset ?? '')
  expect(response.status).toBe(200)
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  expect((await get('/')).headers.get('cache-control')).toBe('no-cache')
  expect((await get('/assets/missing-123.js')).status).toBe(404)
  const favicon = await get('/favicon.svg')
  expect(favicon.status).toBe(200)
  expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600')
})

test('hashed assets are served as the build precompressed them: brotli, gzip or plain, as the client accepts', async () => {
  // The public pages load no script (ADR 044); the sign-in page does.
  const html = await (await get('/auth')).text()
  const script = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(html)
  const asset = script?.[1] ?? script?.[2] ?? ''
  expect(asset).not.toBe('')
  const plain = await get(asset, { headers: { 'accept-encoding': 'identity' } })
  const text = await plain.text()
  expect(plain.headers.get('content-encoding')).toBeNull()
  expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  // The raw bytes on the wire, so the encoding is checked, not undone by fetch.
  const raw = async (encoding: string) =>
    new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(`${server.url}${asset}`, { headers: { 'accept-encoding': encoding } }, (response) => {
            const chunks: Buffer[] = []
            response.on('data', (chunk: Buffer) => chunks.push(chunk))
            response.on('end', () =>
              resolve({
                encoding: response.headers['content-encoding'],
                vary: response.headers.vary,
                body: Buffer.concat(chunks),
              }),
            )
          })
          .on('error', reject)
      },
    )
  const brotli = await raw('gzip, deflate, br')
  expect(brotli.encoding).toBe('br')
  expect(brotli.vary).toBe('Accept-Encoding')
  expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(text)
  const gzip = await raw('gzip')
  expect(gzip.encoding).toBe('gzip')
  expect(zlib.gunzipSync(gzip.body).toString()).toBe(text)
  expect(gzip.body.length).toBeLessThan(Buffer.byteLength(text))
  expect((await fetch(`${server.url}${asset}`, { method: 'POST' })).status).toBe(405)
})

test('a settings change reaches the running server and its cached pages at once', async () => {
  const before = await get('/services', { headers: { cookie: 'lang=en' } })
  expect(await before.text()).toContain('JPY\u00a0500')
  expect((await get('/services', { headers: { cookie: 'lang=en' } })).headers.get('x-page-cache')).toBe('HIT')

  await createSettingsService({ db: database.db }).update({ serviceFeeJpy: 800 })

  await vi.waitFor(async () => {
    const after = await get('/services', { headers: { cookie: 'lang=en' } })
    expect(await after.text()).toContain('JPY\u00a0800')
  })
  await createSettingsService({ db: database.db }).update({ serviceFeeJpy: 500 })
})

test('a failing database read shows the error page with status 500 and no stack trace, then recovers', async () => {
  await database.pool.query('ALTER TABLE settings RENAME TO settings_away')
  try {
    // The running server cached the settings; a change notification drops that cache.
    await database.pool.query(`NOTIFY settings_changed`)
    await vi.waitFor(async () => {
      const response = await get('/store-guide?fresh=1', { headers: { cookie: 'lang=en' } })
      expect(response.status).toBe(500)
      const html = await response.text()
      expect(html).toContain('Unexpected Application Error!')
      expect(html).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/)
    })
  } finally {
    await database.pool.query('ALTER TABLE settings_away RENAME TO settings')
  }
  await vi.waitFor(async () => expect((await get('/store-guide?fresh=2')).status).toBe(200))
})
