import { describe, expect, test } from 'vitest'
import type { RateRow } from './pricing.ts'
import {
  BLANK_ROW,
  previewRateChange,
  RATE_TABLE_LIMITS,
  type RateFormRow,
  RateTableFormSchema,
  rateFormRows,
  rateTableProblems,
} from './rate-tables.ts'

const row = (ceilingG: number, price = 1000): RateRow => ({
  ceilingG,
  prices: { asia: price, europe_canada_mexico: price + 1, usa: price + 2, central_south_america: price + 3 },
})

/** A usable express table (500 g to 10 kg). */
const express = [row(500, 3000), row(1000, 4000), row(5000, 9000), row(10_000, 15_000)]

describe('rateTableProblems: what makes a table unusable', () => {
  test('a usable table has none', () => {
    expect(rateTableProblems('express', express)).toEqual([])
    expect(rateTableProblems('economic', [row(2000)])).toEqual([])
  })

  test('no rows, too many rows', () => {
    expect(rateTableProblems('express', [])).toEqual([{ kind: 'noRows' }])
    const many = Array.from({ length: RATE_TABLE_LIMITS.rows + 1 }, (_, index) => row(1000 + index * 200))
    expect(rateTableProblems('express', many)).toContainEqual({ kind: 'tooManyRows' })
  })

  test('ceilings must rise strictly from row to row', () => {
    expect(rateTableProblems('express', [row(1000), row(500), row(10_000)])).toEqual([
      { kind: 'notAscending', index: 1 },
    ])
    expect(rateTableProblems('express', [row(1000), row(1000), row(10_000)])).toEqual([
      { kind: 'notAscending', index: 1 },
    ])
  })

  test('a gap in coverage: the last ceiling short of the largest weight the method takes', () => {
    expect(rateTableProblems('express', [row(500), row(9950)])).toEqual([{ kind: 'coverage' }])
    expect(rateTableProblems('economic', [row(300), row(1900)])).toEqual([{ kind: 'coverage' }])
  })

  test('prices: positive whole yen, within the limit', () => {
    const bad = (prices: Partial<RateRow['prices']>): RateRow[] => [
      { ceilingG: 10_000, prices: { ...row(10_000).prices, ...prices } },
    ]
    expect(rateTableProblems('express', bad({ usa: 0 }))).toEqual([{ kind: 'price', index: 0 }])
    expect(rateTableProblems('express', bad({ usa: -5 }))).toEqual([{ kind: 'price', index: 0 }])
    expect(rateTableProblems('express', bad({ asia: 1200.5 }))).toEqual([{ kind: 'price', index: 0 }])
    expect(rateTableProblems('express', bad({ asia: Number.NaN }))).toEqual([{ kind: 'price', index: 0 }])
    expect(rateTableProblems('express', bad({ asia: 1_000_001 }))).toEqual([{ kind: 'price', index: 0 }])
  })

  test('ceilings: whole grams from 1 to 30 kg', () => {
    expect(rateTableProblems('express', [row(0), row(10_000)])).toContainEqual({
      kind: 'ceilingRange',
      index: 0,
    })
    expect(rateTableProblems('express', [row(500.5), row(10_000)])).toContainEqual({
      kind: 'ceilingRange',
      index: 0,
    })
    expect(rateTableProblems('express', [row(30_001)])).toContainEqual({ kind: 'ceilingRange', index: 0 })
  })
})

/** The editor's form as Conform hands it over. */
function submit(rows: Partial<RateFormRow>[], extra: Record<string, unknown> = {}) {
  return RateTableFormSchema.safeParse({ method: 'express', version: 'v1', step: 'preview', rows, ...extra })
}

function errors(result: ReturnType<typeof submit>) {
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

const formRow = (ceilingG: string, price: string): Partial<RateFormRow> => ({
  ceilingG,
  asia: price,
  europe_canada_mexico: price,
  usa: price,
  central_south_america: price,
})

describe('the editor form', () => {
  test('the saved table, shown with its spare rows and sent back, reads as the same table', () => {
    const result = submit([...rateFormRows(express), BLANK_ROW, BLANK_ROW, BLANK_ROW])
    expect(result.data).toEqual({ method: 'express', version: 'v1', step: 'preview', rows: express })
  })

  test('a row added at the bottom is put in its place; a row ticked Remove is dropped', () => {
    const result = submit([
      formRow('500', '3000'),
      { ...formRow('1000', '4000'), remove: 'on' },
      formRow('10000', '15000'),
      formRow('2,000', '¥5,500'),
      BLANK_ROW,
    ])
    expect(result.data?.rows.map((r) => [r.ceilingG, r.prices.usa])).toEqual([
      [500, 3000],
      [2000, 5500],
      [10_000, 15_000],
    ])
  })

  test('each bad cell is refused where it is, by its row as sent (spare rows count)', () => {
    const result = submit([
      formRow('500', '3000'),
      BLANK_ROW,
      { ...formRow('1000', '4000'), usa: '4000.5', asia: '0', central_south_america: '-1' },
      { ...formRow('abc', '5000'), europe_canada_mexico: '' },
      { ...formRow('40000', '5000'), asia: '1000001' },
      formRow('10000', '15000'),
    ])
    expect(errors(result)).toEqual({
      'rows.2.usa': 'notWhole',
      'rows.2.asia': 'pricePositive',
      'rows.2.central_south_america': 'pricePositive',
      'rows.3.ceilingG': 'notNumber',
      'rows.3.europe_canada_mexico': 'required',
      'rows.4.ceilingG': 'ceilingRange',
      'rows.4.asia': 'priceRange',
    })
  })

  test('two rows with one ceiling: the later one is refused', () => {
    expect(errors(submit([formRow('1000', '1'), formRow('10000', '2'), formRow('1,000', '3')]))).toEqual({
      'rows.2.ceilingG': 'ceilingDuplicate',
    })
  })

  test('a table short of the method’s range, or with no rows left, is refused as a whole', () => {
    expect(errors(submit([formRow('500', '1'), formRow('9950', '2')]))).toEqual({ rows: 'coverage' })
    expect(errors(submit([{ ...formRow('10000', '1'), remove: 'on' }, BLANK_ROW]))).toEqual({
      rows: 'noRows',
    })
    expect(errors(submit([]))).toEqual({ rows: 'noRows' })
    expect(errors(RateTableFormSchema.safeParse({ method: 'express' }))).toEqual({ rows: 'noRows' })
    expect(
      errors(
        submit(Array.from({ length: 61 }, (_, index) => formRow(String(200 * (index + 1) + 10_000), '5'))),
      ),
    ).toEqual({
      rows: 'tooManyRows',
    })
  })

  test('hostile input: an unknown table, a huge list, markup and wrong types in cells', () => {
    expect(errors(submit([formRow('10000', '1')], { method: 'teleport' }))).toEqual({
      method: 'unknownTable',
    })
    expect(errors(submit(Array.from({ length: 500 }, () => BLANK_ROW)))).toEqual({ rows: 'tooManyRows' })
    expect(errors(submit('rows' as never))).toEqual({ rows: 'noRows' })
    expect(errors(submit([{ ...formRow('10000', '1'), usa: '<script>' }]))).toEqual({
      'rows.0.usa': 'notNumber',
    })
    expect(errors(submit([{ ...formRow('10000', '1'), usa: ['1', '2'] as unknown as string }]))).toEqual({
      'rows.0.usa': 'invalid',
    })
    // An unknown step is a preview, never a save.
    expect(submit([formRow('10000', '1')], { step: 'drop-table' }).data?.step).toBe('preview')
  })
})

test('the preview compares today’s price and the new one on sample weights, with what changed', () => {
  const next = [row(500, 3000), row(1000, 4500), row(7000, 12_000), row(10_000, 15_000)]
  const preview = previewRateChange('express', express, next)
  expect(preview.added).toEqual([7000])
  expect(preview.removed).toEqual([5000])
  expect(preview.changed).toEqual([1000])
  // The range's ends, quarters and default weight, and each changed ceiling.
  expect(preview.samples.map((sample) => sample.weightG)).toEqual([
    500, 1000, 2900, 5000, 5250, 7000, 7650, 10_000,
  ])
  const at = (weight: number) => preview.samples.find((sample) => sample.weightG === weight)?.prices.usa
  expect(at(1000)).toEqual({ before: 4002, after: 4502 })
  expect(at(5000)).toEqual({ before: 9002, after: 12_002 })
  expect(at(500)).toEqual({ before: 3002, after: 3002 })
  // A weight no row covers has no price (said, never guessed).
  expect(previewRateChange('express', [row(1000)], express).samples[0]?.prices.asia).toEqual({
    before: 1000,
    after: 3000,
  })
  expect(previewRateChange('express', express, [row(1000)]).samples.at(-1)?.prices.asia).toEqual({
    before: 15_000,
    after: null,
  })
})
