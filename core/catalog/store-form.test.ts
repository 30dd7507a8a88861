import { describe, expect, test } from 'vitest'
import { SEED_STORES } from '#core/seed/data/stores.ts'
import { contrastWithWhite, LOGO_MIN_CONTRAST, StoreFormSchema, slugFor } from './store-form.ts'

// The store editor's form, as the browser and the action both read it.

const GOOD = {
  version: '3',
  name: ' Suruga-ya ',
  url: 'https://www.suruga-ya.jp',
  descriptionEs: 'Figuras y juegos usados.',
  descriptionEn: 'Second-hand figures and games.',
  categories: ['figures_and_collectibles', 'general_and_anime_goods'],
  logoText: 'SU',
  logoColor: '#1D4ED8',
}

function errorsOf(input: Record<string, unknown>) {
  const result = StoreFormSchema.safeParse(input)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('a good store', () => {
  test('is read trimmed, its colour lower-case, its categories in the guide’s order', () => {
    expect(StoreFormSchema.parse(GOOD)).toEqual({
      version: 3,
      values: {
        name: 'Suruga-ya',
        url: 'https://www.suruga-ya.jp/',
        descriptionEs: 'Figuras y juegos usados.',
        descriptionEn: 'Second-hand figures and games.',
        categories: ['general_and_anime_goods', 'figures_and_collectibles'],
        logoText: 'SU',
        logoColor: '#1d4ed8',
      },
    })
  })
  test('one checkbox arrives as one value; a new store has version 0', () => {
    const parsed = StoreFormSchema.parse({ ...GOOD, version: undefined, categories: 'beauty_and_cosmetics' })
    expect(parsed.version).toBe(0)
    expect(parsed.values.categories).toEqual(['beauty_and_cosmetics'])
  })
  test('every seed colour passes the contrast the form asks', () => {
    for (const store of SEED_STORES)
      expect(contrastWithWhite(store.color)).toBeGreaterThanOrEqual(LOGO_MIN_CONTRAST)
  })
})

describe('bad input, field by field', () => {
  test('empty fields', () => {
    expect(errorsOf({})).toMatchObject({
      name: 'required',
      url: 'required',
      descriptionEs: 'required',
      descriptionEn: 'required',
      categories: 'categoriesRequired',
      logoText: 'required',
      logoColor: 'required',
    })
  })
  test('too long, wrong scheme, unknown category, control characters, wrong types', () => {
    expect(
      errorsOf({
        ...GOOD,
        name: 'x'.repeat(81),
        url: 'javascript:alert(1)',
        descriptionEs: 'y'.repeat(401),
        descriptionEn: 'bad\u202eorder',
        categories: ['figures_and_collectibles', 'weapons'],
        logoText: 'ABCD',
        logoColor: { r: 1 },
      }),
    ).toEqual({
      name: 'tooLong',
      url: 'httpsUrl',
      descriptionEs: 'tooLong',
      descriptionEn: 'controlCharacters',
      categories: 'invalid',
      logoText: 'tooLong',
      logoColor: 'invalid',
    })
    expect(errorsOf({ ...GOOD, url: 'http://www.suruga-ya.jp' })).toEqual({ url: 'httpsUrl' })
    expect(errorsOf({ ...GOOD, url: 'https://user:pw@shop.example.jp' })).toEqual({ url: 'httpsUrl' })
  })
  test('a colour that is not one, or too light for white letters', () => {
    expect(errorsOf({ ...GOOD, logoColor: 'red' })).toEqual({ logoColor: 'colorFormat' })
    expect(errorsOf({ ...GOOD, logoColor: '#12345' })).toEqual({ logoColor: 'colorFormat' })
    expect(errorsOf({ ...GOOD, logoColor: '#facc15' })).toEqual({ logoColor: 'colorContrast' })
    expect(errorsOf({ ...GOOD, logoColor: '#ffffff' })).toEqual({ logoColor: 'colorContrast' })
  })
  test('a version sent by hand that is not a number reads as 0 (then refused as stale by the service)', () => {
    expect(StoreFormSchema.parse({ ...GOOD, version: '1; drop table stores' }).version).toBe(0)
  })
})

test('contrast of white on black is 21:1, on white 1:1', () => {
  expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5)
  expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5)
})

test('slugs: accents gone, words joined, never empty', () => {
  expect(slugFor('Café Kōbō & Co.')).toBe('cafe-kobo-co')
  expect(slugFor('アニメイト')).toBe('store')
  expect(slugFor(`${'a'.repeat(59)} b`)).toBe('a'.repeat(59))
})
