import { expect, describe as group, test } from 'vitest'
import { getServerI18n } from '#app/i18n.server.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { SEED_IMPORT_RULES } from '#core/seed/data/import-rules.ts'
import { describe } from './audit-change.tsx'
import { bandLines, unflatten } from './import-rule-text.ts'

// The import rules in words (issue 30): each band of a rule, and the audit log's two kinds
// (`import_rule.add`, `destination.methods`) as people read them, never as stored paths.

/** A rule as the service records it: flat paths ("bands.0.vatBp"). */
function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object') return { [prefix]: value }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value))
    Object.assign(out, flatten(inner, prefix ? `${prefix}.${key}` : key))
  return out
}

const seed = (country: string) => {
  const found = SEED_IMPORT_RULES.find((candidate) => candidate.country === country)
  if (!found) throw new Error(country)
  return found
}

test('unflatten undoes the audit record’s paths, lists included, and ignores prototype keys', () => {
  const rule = seed('AR').rule
  expect(unflatten(flatten(rule))).toEqual(rule)
  expect(unflatten({ '__proto__.polluted': 1, 'a.constructor.b': 2 })).toEqual({})
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

group.each(['en', 'es'] as Language[])('in %s', (language) => {
  const t = getServerI18n(language, ['common', 'admin']).t
  const raw = /importRules\.|audit\.|bands\.\d|Bp\b|Minor\b|goods_and_shipping|without_tax_id|true|false/

  test('bands read as sentences', () => {
    // Intl writes narrow and no-break spaces ("USD 500", "19 %"): compared as plain ones.
    const plain = (lines: { value: string; charges: string }[]) =>
      lines.map(({ value, charges }) => ({
        value: value.replace(/[\u00a0\u202f]/g, ' '),
        charges: charges.replace(/[\u00a0\u202f]/g, ' '),
      }))
    const chile = plain(bandLines(t, seed('CL').rule, language))
    if (language === 'en')
      expect(chile).toEqual([
        { value: 'Up to USD 500', charges: 'no duty, IVA 19%' },
        { value: 'Above USD 500', charges: expect.stringMatching(/^Duty 6%, IVA 19%/) },
      ])
    else
      expect(chile[0]).toEqual({
        value: 'Hasta 500 USD',
        charges: 'sin arancel, IVA 19 %',
      })
    const mexico = plain(bandLines(t, seed('MX').rule, language))
    expect(mexico[0]?.charges).toMatch(language === 'en' ? /One rate of 33\.5%/ : /33,5 %/)
    expect(mexico[1]?.charges).toMatch(language === 'en' ? /formal import entry/ : /Importación formal/)
  })

  test('an added version and a method change read in words', () => {
    const { rule } = seed('MX')
    const added = describe(
      {
        kind: 'import_rule.add',
        subjectType: 'import_rule',
        subjectId: 'MX',
        subjectEmail: null,
        before: {},
        after: { effectiveFrom: '2027-01-01', ...flatten(rule) },
      },
      t,
      language,
    )
    expect(added[0]).toMatch(
      language === 'en'
        ? /^Mexico: a version from January 1, 2027$/
        : /^México: una versión desde el 1 de enero de 2027$/,
    )
    expect(added.join('\n')).not.toMatch(raw)
    const method = describe(
      {
        kind: 'destination.methods',
        subjectType: 'destination',
        subjectId: 'US:economic',
        subjectEmail: null,
        before: { available: true },
        after: { available: false, effectiveFrom: '2025-08-27' },
      },
      t,
      language,
    )
    expect(method.map((line) => line.replace(/[\u00a0\u202f]/g, ' '))).toEqual(
      language === 'en'
        ? ['Economic to United States', 'Available: Yes → No', 'Since: August 27, 2025']
        : ['Económico a Estados Unidos', 'Disponible: Sí → No', 'Desde: 27 de agosto de 2025'],
    )
  })
})
