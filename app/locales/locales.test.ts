import fs from 'node:fs'
import path from 'node:path'
import { parse } from '@babel/parser'
import { expect, test } from 'vitest'
import en from './en.ts'
import es from './es.ts'

type Tree = { [key: string]: string | Tree }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') entries.set(full, value)
    else for (const [k, v] of flatten(value, full)) entries.set(k, v)
  }
  return entries
}

const english = flatten(en)
const spanish = flatten(es)

// i18next picks `key_<category>` by the language's CLDR plural rules (`_zero` first when count
// is 0 and it exists); a category without its string shows the raw key.
const PLURAL = /_(zero|one|two|few|many|other)$/
const withoutPluralForm = (key: string) => key.replace(PLURAL, '_{plural}')

test('es and en have exactly the same keys (each plural with the forms its own language uses)', () => {
  const englishKeys = new Set([...english.keys()].map(withoutPluralForm))
  const spanishKeys = new Set([...spanish.keys()].map(withoutPluralForm))
  const missingInSpanish = [...englishKeys].filter((key) => !spanishKeys.has(key))
  const extraInSpanish = [...spanishKeys].filter((key) => !englishKeys.has(key))
  expect({ missingInSpanish, extraInSpanish }).toEqual({ missingInSpanish: [], extraInSpanish: [] })
})

test.each([
  ['es', spanish],
  ['en', english],
] as const)(
  'every plural in %s has a string for each of its plural categories, and no other',
  (language, strings) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
    const plurals = new Map<string, Set<string>>()
    for (const key of strings.keys()) {
      const form = PLURAL.exec(key)?.[1]
      if (!form) continue
      const base = key.replace(PLURAL, '')
      plurals.set(base, (plurals.get(base) ?? new Set()).add(form))
    }
    expect(plurals.size).toBeGreaterThan(10)
    const wrong = [...plurals].flatMap(([base, forms]) => [
      ...categories
        .filter((category) => !forms.has(category))
        .map((category) => `${base}_${category} missing`),
      ...[...forms]
        .filter((form) => form !== 'zero' && !categories.includes(form as Intl.LDMLPluralRule))
        .map((form) => `${base}_${form} is not a ${language} plural form`),
    ])
    expect(wrong).toEqual([])
  },
)

test('no string is empty in either language', () => {
  const empty = [...english, ...spanish].filter(([, value]) => value.trim() === '').map(([key]) => key)
  expect(empty).toEqual([])
})

test('both languages use the same interpolation variables for each key', () => {
  const variables = (value: string) =>
    [...value.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort()
  const mismatched = [...english].filter(([key, value]) => {
    const other = spanish.get(key)
    return other !== undefined && variables(value).join() !== variables(other).join()
  })
  expect(mismatched.map(([key]) => key)).toEqual([])
})

// Attributes a person reads or hears; their text must come from the locale files.
const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'alt', 'placeholder', 'label'])
const HAS_LETTER = /\p{L}/u

type AstNode = { type: string; loc?: { start: { line: number } } | null; [key: string]: unknown }

/** Every user-visible literal string in a TSX source, as `line: text`. */
function findLiteralStrings(source: string): string[] {
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', 'jsx'] })
  const found: string[] = []
  const visit = (node: unknown, parent: AstNode | null) => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parent)
      return
    }
    const current = node as AstNode
    const line = current.loc?.start.line ?? 0
    if (current.type === 'JSXText' && HAS_LETTER.test(String(current.value))) {
      found.push(`${line}: ${String(current.value).trim()}`)
    }
    if (current.type === 'JSXAttribute') {
      const name = (current.name as AstNode).name
      const value = current.value as AstNode | null
      if (
        VISIBLE_ATTRIBUTES.has(String(name)) &&
        value?.type === 'StringLiteral' &&
        HAS_LETTER.test(String(value.value))
      ) {
        found.push(`${line}: ${String(name)}="${String(value.value)}"`)
      }
    }
    if (
      current.type === 'StringLiteral' &&
      parent?.type === 'JSXExpressionContainer' &&
      HAS_LETTER.test(String(current.value))
    ) {
      found.push(`${line}: {'${String(current.value)}'}`)
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end') visit(child, current)
    }
  }
  visit(ast.program, null)
  return found
}

function componentFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return componentFiles(full)
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [full] : []
  })
}

test('the literal-string check finds text, visible attributes and string children', () => {
  const sample = `export const A = () => <p title="Hola" className="x">Hello {'world'} {t('ok')} <b>{1}</b></p>`
  expect(findLiteralStrings(sample).sort()).toEqual(['1: Hello', '1: title="Hola"', "1: {'world'}"].sort())
})

test('no component renders a user-visible literal string', () => {
  const offenders = componentFiles(path.resolve('app')).flatMap((file) =>
    findLiteralStrings(fs.readFileSync(file, 'utf8')).map(
      (hit) => `${path.relative(process.cwd(), file)}:${hit}`,
    ),
  )
  expect(offenders).toEqual([])
})

test('no section is split across two areas (the whole dictionary spreads the areas together)', async () => {
  const areaFiles = ['common', 'public', 'account', 'admin', 'emails']
  for (const language of ['en', 'es']) {
    const owners = new Map<string, string>()
    for (const area of areaFiles) {
      const { default: messages } = (await import(`./${language}/${area}.ts`)) as { default: object }
      for (const section of Object.keys(messages)) {
        expect(owners.get(section), `${language}: ${section} in ${area}`).toBeUndefined()
        owners.set(section, area)
      }
    }
  }
})

test('each area file has the same keys in both languages', async () => {
  for (const area of ['common', 'public', 'account', 'admin', 'emails']) {
    const english = flatten(((await import(`./en/${area}.ts`)) as { default: Tree }).default)
    const spanish = flatten(((await import(`./es/${area}.ts`)) as { default: Tree }).default)
    const keys = (strings: Map<string, string>) =>
      [...new Set([...strings.keys()].map(withoutPluralForm))].sort()
    expect(keys(spanish), area).toEqual(keys(english))
  }
})

test('every notification type, the customer’s and the staff’s, has its title and body in both languages', async () => {
  const { CUSTOMER_NOTIFICATION_TYPES, STAFF_NOTIFICATION_TYPES } = await import(
    '#core/notifications/notify.ts'
  )
  const wanted = [
    ...CUSTOMER_NOTIFICATION_TYPES.map((type) => `customerNotifications.${type}`),
    ...STAFF_NOTIFICATION_TYPES.map((type) => `staffNotifications.${type}`),
  ].flatMap((key) => [`${key}.title`, `${key}.body`])
  for (const [language, strings] of [
    ['es', spanish],
    ['en', english],
  ] as const) {
    expect(
      wanted.filter((key) => !strings.has(key)),
      language,
    ).toEqual([])
  }
})
