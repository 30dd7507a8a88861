import { expect, test } from 'vitest'
import { COOKIE_NAMES, siteCookies } from './cookies.server.ts'
import { serializeNotice } from './notice.ts'

test('every cookie is HttpOnly, SameSite=Lax, Path=/, and Secure exactly when APP_URL is https', async () => {
  for (const [appUrl, secure] of [
    ['http://localhost:3000', false],
    ['https://shop.example', true],
  ] as const) {
    const cookies = siteCookies(appUrl)
    const lines = [
      await cookies.language.serialize('en'),
      await cookies.currency.serialize('USD'),
      await cookies.consent.serialize('granted'),
      await cookies.flash.serialize('signedIn'),
      await cookies.expire(cookies.flash),
    ]
    for (const line of lines) {
      const attributes = line.split('; ').slice(1)
      expect(attributes, line).toEqual(
        expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])]),
      )
      expect(line.includes('; Secure'), line).toBe(secure)
    }
  }
})

test('values stay plain tokens, with the names and lifetimes the page cache and visitors rely on', async () => {
  const cookies = siteCookies('http://localhost:3000')
  expect(COOKIE_NAMES).toEqual({ language: 'lang', currency: 'currency', consent: 'consent', flash: 'flash' })
  expect(await cookies.language.serialize('en')).toBe(
    'lang=en; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax',
  )
  expect(await cookies.currency.serialize('USD')).toMatch(/^currency=USD; Max-Age=31536000;/)
  expect(await cookies.consent.serialize('denied')).toMatch(/^consent=denied; Max-Age=31536000;/)
  expect(await cookies.flash.serialize('accountDeleted')).toMatch(/^flash=accountDeleted; Max-Age=60;/)
  expect(await cookies.expire(cookies.consent)).toBe('consent=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax')
})

test('a Cookie header is read into known values only', async () => {
  const { read } = siteCookies('http://localhost:3000')
  expect(await read('lang=en; currency=usd; consent=granted; flash=signedIn')).toEqual({
    language: 'en',
    currency: 'USD',
    consent: 'granted',
    flash: { name: 'signedIn' },
  })
  expect(await read(undefined)).toEqual({ language: null, currency: null, consent: null, flash: undefined })
  // Unknown or hostile values count as unset; a flash cookie that is there, even empty, is consumed.
  expect(await read('lang=xx; currency=%E9%zz; consent="granted"; flash=')).toEqual({
    language: null,
    currency: null,
    consent: null,
    flash: null,
  })
  expect(await read('lang=\u00e9; other=1')).toMatchObject({ language: null, flash: undefined })
  // A notice with its parameters goes there and back, any language's letters included.
  const cookies = siteCookies('http://localhost:3000')
  const notice = { name: 'quoteApproved', params: { number: 'INV-2026-000042', who: 'Núñez 東京' } } as const
  const line = await cookies.flash.serialize(serializeNotice(notice))
  expect(line).toMatch(/^flash=%7B%22name%22%3A%22quoteApproved%22/)
  expect((await read(line.split(';')[0])).flash).toEqual(notice)
  // Written by hand: an unknown name, a parameter too long, too many, or not text is no notice.
  for (const value of [
    { name: 'hacked' },
    { name: 'quoteApproved', params: { number: 'x'.repeat(121) } },
    { name: 'quoteApproved', params: { a: '1', b: '2', c: '3', d: '4', e: '5' } },
    { name: 'quoteApproved', params: { number: 42 } },
    { name: 'quoteApproved', params: { 'no-dash': '1' } },
  ]) {
    const raw = `flash=${encodeURIComponent(JSON.stringify(value))}`
    expect((await read(raw)).flash, raw).toBeNull()
  }
  expect((await read('flash=%7Bnot%20json')).flash).toBeNull()
  // The first occurrence wins, as browsers send the most specific cookie first.
  expect(await read('lang=en; lang=es')).toMatchObject({ language: 'en' })
})
