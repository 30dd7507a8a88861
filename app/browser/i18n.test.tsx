import i18next from 'i18next'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import {
  I18nextProvider as RealProvider,
  Trans as RealTrans,
  useTranslation as useRealTranslation,
} from 'react-i18next'
import { describe, expect, test } from 'vitest'
import type { Language } from '#core/preferences/preferences.ts'
import { BUNDLES, type BundleName } from '../locales/areas.ts'
import { createInstance } from './i18next.ts'
import { I18nextProvider, Trans, useTranslation } from './react-i18next.tsx'
import { interpolate, merge } from './translate.ts'

/**
 * The browser's strings must be the server's, character for character, or hydration fails. The
 * real i18next (as the server configures it, app/i18n.ts) and the stand-in are given the same
 * bundles and asked for every key, with every count that picks a different plural form, with
 * every variable the string names, with none, and with some passed as undefined or null.
 */
type Tree = { [key: string]: string | Tree }

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const full = prefix ? `${prefix}.${key}` : key
    return typeof value === 'string' ? [[full, value] as [string, string]] : leaves(value, full)
  })
}

async function bundles(language: Language) {
  const names = Object.keys(BUNDLES[language]) as BundleName[]
  const modules = await Promise.all(names.map((name) => BUNDLES[language][name]()))
  return modules.map((module) => module.default as Tree)
}

function real(language: Language, trees: Tree[]) {
  const instance = i18next.createInstance()
  void instance.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: {} } },
    interpolation: { escapeValue: false },
    initAsync: false,
  })
  for (const tree of trees) instance.addResourceBundle(language, 'translation', tree, true, false)
  return instance
}

function standIn(language: Language, trees: Tree[]) {
  const instance = createInstance().init({ lng: language, resources: { [language]: { translation: {} } } })
  for (const tree of trees) instance.addResourceBundle(language, 'translation', tree, true, false)
  return instance
}

// 0, 1, 2, 5, 21 and a million pick every plural form Spanish and English have (one, many, other).
const COUNTS = [0, 1, 2, 5, 21, 1_000_000, 1.5]

describe.each(['es', 'en'] as const)('the browser stand-in gives the server’s strings (%s)', (language) => {
  test('every key of every browser bundle, with and without its variables and counts', async () => {
    const trees = await bundles(language)
    const server = real(language, trees)
    const browser = standIn(language, trees)
    const keys = new Set<string>()
    for (const tree of trees)
      for (const [key] of leaves(tree)) keys.add(key.replace(/_(zero|one|two|few|many|other)$/, ''))
    expect(keys.size).toBeGreaterThan(500)

    const differences: string[] = []
    for (const key of keys) {
      const text = [server.t(key as never, { count: 2 } as never)].join()
      const variables = [
        ...new Set([...text.matchAll(/\{\{(.+?)\}\}/g)].map((match) => match[1]?.trim() ?? '')),
      ]
      const filled = Object.fromEntries(variables.map((name, index) => [name, `V${index}<&>`]))
      const optionSets: Record<string, unknown>[] = [
        {},
        filled,
        ...COUNTS.map((count) => ({ ...filled, count })),
        Object.fromEntries(variables.map((name) => [name, undefined])),
        Object.fromEntries(variables.map((name) => [name, null])),
        { defaultValue: 'fallback {{x}}', x: 'y' },
      ]
      for (const options of optionSets) {
        const expected = String(server.t(key as never, options as never))
        const actual = browser.t(key, options)
        if (actual !== expected)
          differences.push(`${key} ${JSON.stringify(options)}: ${expected} ≠ ${actual}`)
      }
      if (browser.exists(key) !== server.exists(key)) differences.push(`${key}: exists differs`)
    }
    expect(differences).toEqual([])
  })

  test('a missing key, a default value and a missing variable', async () => {
    const trees = await bundles(language)
    const server = real(language, trees)
    const browser = standIn(language, trees)
    for (const [key, options] of [
      ['no.such.key', undefined],
      ['no.such.key', { defaultValue: 'Hola {{name}}', name: 'Ana' }],
      ['common', undefined],
    ] as const) {
      expect(browser.t(key, options)).toBe(String(server.t(key as never, options as never)))
    }
  })
})

test('interpolation: nested values, spaces inside the braces, a variable not passed stays', () => {
  expect(interpolate('{{ a.b }} and {{c}} and {{d}}', { a: { b: 1 }, c: 'x' })).toBe('1 and x and {{d}}')
  expect(interpolate('{{a}}', { a: undefined })).toBe('')
  expect(interpolate('{{a}}', { a: null })).toBe('')
})

test('merge adds a bundle without overwriting what is there', () => {
  const target = { a: { b: 'one' } }
  merge(target, { a: { b: 'two', c: 'three' }, d: 'four' }, false)
  expect(target).toEqual({ a: { b: 'one', c: 'three' }, d: 'four' })
})

test('<Trans> renders the same markup as react-i18next’s', async () => {
  for (const language of ['es', 'en'] as const) {
    const trees = await bundles(language)
    const props = {
      i18nKey: 'auth.checkEmailSentTo',
      values: { email: 'ana@example.com' },
      components: { address: createElement('strong', { className: 'break-all' }) },
    }
    const expected = renderToStaticMarkup(
      createElement(RealProvider, { i18n: real(language, trees) }, createElement(RealTrans, props as never)),
    )
    const actual = renderToStaticMarkup(
      createElement(I18nextProvider, { i18n: standIn(language, trees) }, createElement(Trans, props)),
    )
    expect(actual).toContain('<strong class="break-all">ana@example.com</strong>')
    expect(actual).toBe(expected)
  }
})

/** The `t` a component gets from a hook under a provider, rendered once to catch it. */
function hookT(
  Provider: typeof RealProvider | typeof I18nextProvider,
  useHook: () => { t: unknown },
  i18n: unknown,
): (key: string, options?: Record<string, unknown>) => string {
  let caught: unknown = null
  function Catch() {
    caught = useHook().t
    return null
  }
  renderToStaticMarkup(createElement(Provider as never, { i18n } as never, createElement(Catch)))
  return caught as (key: string, options?: Record<string, unknown>) => string
}

describe.each(['es', 'en'] as const)(
  'on the server, the stand-in hook over real i18next (%s)',
  (language) => {
    test('gives react-i18next’s strings for every key, with and without variables and counts', async () => {
      const trees = await bundles(language)
      const instance = real(language, trees)
      const expectedT = hookT(RealProvider, useRealTranslation, instance)
      const actualT = hookT(I18nextProvider, useTranslation, instance)
      const differences: string[] = []
      for (const key of new Set(trees.flatMap((tree) => leaves(tree).map(([leaf]) => leaf)))) {
        const base = key.replace(/_(zero|one|two|few|many|other)$/, '')
        for (const options of [undefined, { count: 1 }, { count: 5 }, { name: 'V<&>', email: 'a@b' }]) {
          const expected = expectedT(base, options)
          if (actualT(base, options) !== expected) differences.push(`${base} ${JSON.stringify(options)}`)
        }
      }
      expect(differences).toEqual([])
    })

    test('<Trans> renders the same markup', async () => {
      const instance = real(language, await bundles(language))
      const props = {
        i18nKey: 'auth.checkEmailSentTo',
        values: { email: 'ana@example.com' },
        components: { address: createElement('strong', { className: 'break-all' }) },
      }
      const expected = renderToStaticMarkup(
        createElement(RealProvider, { i18n: instance }, createElement(RealTrans, props as never)),
      )
      const actual = renderToStaticMarkup(
        createElement(I18nextProvider, { i18n: instance as never }, createElement(Trans, props)),
      )
      expect(actual).toBe(expected)
    })
  },
)
