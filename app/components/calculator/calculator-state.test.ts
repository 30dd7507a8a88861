import { describe, expect, it } from 'vitest'
import { rulesForDay } from '#core/landed-cost/destination-rules.ts'
import { SEED_IMPORT_RULES, SEED_METHOD_RULES } from '#core/seed/data/import-rules.ts'
import { readCalculatorState, usableMethod, weightForReplacedMethod } from './calculator-state.ts'
import { rulesForPage } from './page-rules.ts'

// The seeded rules as the page reads them on a day after every seeded date.
const RULES = rulesForDay(
  {
    versions: SEED_IMPORT_RULES.map((seed, index) => ({
      ...seed,
      id: `rule-${index}`,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    })),
    blocks: [...SEED_METHOD_RULES],
  },
  '2026-11-27',
)

const read = (query: string) => readCalculatorState(new URLSearchParams(query), RULES)

describe('readCalculatorState: the country', () => {
  it('reads a country code from the query, in either case', () => {
    expect(read('country=CL').country).toBe('CL')
    expect(read('country=es').country).toBe('ES')
    expect(read('country=DE').country).toBe('DE')
  })

  it('ignores what is not a country we ship to, and quotes Mexico', () => {
    for (const query of [
      '',
      'country=',
      'country=XX',
      'country=JP',
      'country=europe',
      'country=CHL',
      'country=<b>',
    ]) {
      expect(read(query).country).toBe('MX')
    }
  })
})

describe('readCalculatorState: the method the country can use', () => {
  it('keeps a method the country can use', () => {
    const state = read('country=CL&qmethod=economic&qweight=700')
    expect(state.quoteMethod).toBe('economic')
    expect(state.quoteWeight).toBe('700')
  })

  it('replaces economy by express for the USA and the countries reached through it', () => {
    for (const country of ['US', 'PR', 'CO', 'BO']) {
      const state = read(`country=${country}&qmethod=economic`)
      expect(state.quoteMethod).toBe('express')
    }
  })

  it('keeps the typed weight when the new method takes it, else the new default', () => {
    expect(read('country=US&qmethod=economic&qweight=1500').quoteWeight).toBe('1500')
    // 300 g is an economy weight; express starts at 500 g.
    expect(read('country=US&qmethod=economic&qweight=300').quoteWeight).toBe('1000')
    expect(read('country=US&qmethod=economic').quoteWeight).toBe('500')
  })

  it('without rules every method is offered; with them the USA region offers what the USA can use', () => {
    const state = readCalculatorState(new URLSearchParams('country=US&qmethod=economic&method=economic'))
    expect(state.quoteMethod).toBe('economic')
    expect(readCalculatorState(new URLSearchParams('method=economic&region=usa')).method).toBe('economic')
    expect(read('country=US&method=economic&region=usa').method).toBe('express')
  })
})

describe('usableMethod', () => {
  it('is the method itself, the first usable one, or none', () => {
    expect(usableMethod(RULES, 'MX', 'economic')).toBe('economic')
    expect(usableMethod(RULES, 'US', 'economic')).toBe('express')
    expect(usableMethod(RULES, 'US', 'express')).toBe('express')
    const closed = {
      methods: {
        XX: {
          economic: { available: false, note: { es: 'a', en: 'a' }, source: '', effectiveFrom: '2025-01-01' },
          express: { available: false, note: { es: 'b', en: 'b' }, source: '', effectiveFrom: '2025-01-01' },
        },
      },
    }
    expect(usableMethod(closed, 'XX', 'economic')).toBeNull()
  })

  it('weightForReplacedMethod', () => {
    expect(weightForReplacedMethod('express', '2000')).toBe('2000')
    expect(weightForReplacedMethod('express', 'abc')).toBe('1000')
    expect(weightForReplacedMethod('economic', '5000')).toBe('500')
  })
})

describe('rulesForPage', () => {
  it('keeps the texts in the page language only, and every figure', () => {
    for (const language of ['es', 'en'] as const) {
      const other = language === 'es' ? 'en' : 'es'
      const page = rulesForPage(RULES, language)
      expect(Object.keys(page.rules).sort()).toEqual(Object.keys(RULES.rules).sort())
      const chile = page.rules.CL
      expect(chile?.rule.note[language]).toBe(RULES.rules.CL?.rule.note[language])
      expect(chile?.rule.note[other]).toBe('')
      expect(chile?.rule.bands).toEqual(RULES.rules.CL?.rule.bands)
      expect(chile?.rule.source).toBe(RULES.rules.CL?.rule.source)
      expect(chile?.id).toBe('')
      expect(page.methods.US?.economic?.note[language]).toBe(RULES.methods.US?.economic?.note[language])
      expect(page.methods.US?.economic?.note[other]).toBe('')
      expect(page.methods.US?.economic?.available).toBe(false)
    }
  })

  it('is a quarter smaller than both languages (the numbers and sources stay)', () => {
    const both = JSON.stringify(RULES).length
    expect(JSON.stringify(rulesForPage(RULES, 'es')).length).toBeLessThan(both * 0.8)
  })
})

describe('readCalculatorState: the shipping calculator’s USA region', () => {
  it('offers what the USA can use: economy becomes express, keeping a weight express takes', () => {
    expect(read('region=usa&method=economic&weight=300')).toMatchObject({
      region: 'usa',
      method: 'express',
      weight: '1000',
    })
    expect(read('region=usa&method=economic&weight=700')).toMatchObject({ method: 'express', weight: '700' })
    expect(read('region=usa&method=express&weight=1500')).toMatchObject({ method: 'express', weight: '1500' })
  })

  it('leaves the other regions every method', () => {
    expect(read('region=asia&method=economic&weight=700')).toMatchObject({
      method: 'economic',
      weight: '700',
    })
    expect(read('region=central_south_america&method=economic').method).toBe('economic')
  })
})
