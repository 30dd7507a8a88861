import { expect, test } from 'vitest'
import { z } from 'zod'
import { SaveQuoteDraftSchema } from '#core/orders/quote-schemas.ts'
import { REQUEST_LIMITS, SubmitRequestSchema } from '#core/orders/request-schemas.ts'
import { RATE_TABLE_LIMITS, RateTableFormSchema } from '#core/pricing/rate-tables.ts'
import { SettingsFormSchema } from '#core/settings/settings-form.ts'
import { isAppError } from '#core/shared/errors.ts'
import { BookArrivalSchema } from '#core/warehouse/arrival-schemas.ts'
import { formShapeProblem, parseName, parseSubmission, UNDESCRIBED_LIST_LIMIT } from './form-submission.ts'
import { toPublicError } from './http-errors.ts'

const form = (entries: [string, string][]) => {
  const data = new FormData()
  for (const [name, value] of entries) data.append(name, value)
  return data
}

/** What parseSubmission threw, as the server answers it: the route error the root boundary renders. */
function refusal(run: () => unknown) {
  try {
    run()
  } catch (error) {
    if (!isAppError(error)) throw error
    const { status, messageKey } = toPublicError(error)
    return { status, reason: messageKey }
  }
  throw new Error('not refused')
}

// Each list-shaped form of the site and the most rows it allows.
const LISTS = [
  {
    name: 'purchase request',
    schema: SubmitRequestSchema,
    field: 'items',
    sub: '.url',
    limit: REQUEST_LIMITS.items,
  },
  {
    name: 'quote prices',
    schema: SaveQuoteDraftSchema,
    field: 'items',
    sub: '.title',
    limit: REQUEST_LIMITS.items,
  },
  {
    name: 'arrival',
    schema: BookArrivalSchema,
    field: 'items',
    sub: '.weightG',
    limit: REQUEST_LIMITS.items,
  },
  {
    name: 'rate table',
    schema: RateTableFormSchema,
    field: 'rows',
    sub: '.usa',
    limit: RATE_TABLE_LIMITS.rows + 10,
  },
] as const

for (const list of LISTS) {
  test(`${list.name}: an index at the list's limit is refused with a 400 before parsing; one below passes`, () => {
    const last = `${list.field}[${list.limit - 1}]${list.sub}`
    expect(formShapeProblem(form([[last, 'x']]), list.schema)).toBeNull()
    for (const index of [list.limit, 2000, 99_999_999, Number.MAX_SAFE_INTEGER]) {
      const name = `${list.field}[${index}]${list.sub}`
      expect(refusal(() => parseSubmission(form([[name, 'x']]), { schema: list.schema }))).toEqual({
        status: 400,
        reason: 'errors.reasons.formListTooLong',
      })
    }
  })
}

test('a hundred million rows are refused at once, not built', () => {
  const started = performance.now()
  const data = form([
    ['items[0].url', 'https://jp.mercari.com/item/a'],
    ['items[99999999].url', 'https://jp.mercari.com/item/b'],
  ])
  expect(refusal(() => parseSubmission(data, { schema: SubmitRequestSchema })).status).toBe(400)
  // Building the list first takes seconds and gigabytes; the check is a walk over two names.
  expect(performance.now() - started).toBeLessThan(1000)
})

test('a list the schema does not describe, or an index on a field that is not a list, is bounded too', () => {
  expect(
    formShapeProblem(form([[`junk[${UNDESCRIBED_LIST_LIMIT - 1}]`, 'x']]), SubmitRequestSchema),
  ).toBeNull()
  expect(formShapeProblem(form([[`junk[${UNDESCRIBED_LIST_LIMIT}]`, 'x']]), SubmitRequestSchema)).toMatch(
    /list/,
  )
  expect(formShapeProblem(form([['note[99999999]', 'x']]), SubmitRequestSchema)).toMatch(/list/)
  expect(formShapeProblem(form([['storageReminderDays[99999999]', '1']]), SettingsFormSchema)).toMatch(/list/)
})

test('a list sent as one name again and again is no longer than its limit', () => {
  const schema = z.object({ ids: z.array(z.string()).max(3) })
  expect(
    formShapeProblem(
      form([
        ['ids', 'a'],
        ['ids', 'b'],
        ['ids', 'c'],
      ]),
      schema,
    ),
  ).toBeNull()
  expect(
    formShapeProblem(
      form([
        ['ids', 'a'],
        ['ids', 'b'],
        ['ids', 'c'],
        ['ids', 'd'],
      ]),
      schema,
    ),
  ).toMatch(/4 times/)
  const appended = Array.from(
    { length: REQUEST_LIMITS.items + 1 },
    () => ['items[]', 'x'] as [string, string],
  )
  expect(formShapeProblem(form(appended), SubmitRequestSchema)).toMatch(/times/)
})

test("Conform's intents (add or remove a row) are held to the list's limit; unreadable ones are refused", () => {
  const intent = (value: unknown) => form([['__intent__', JSON.stringify(value)]])
  const schema = SubmitRequestSchema
  expect(formShapeProblem(intent({ type: 'insert', payload: { name: 'items' } }), schema)).toBeNull()
  expect(
    formShapeProblem(intent({ type: 'remove', payload: { name: 'items', index: 2 } }), schema),
  ).toBeNull()
  expect(
    formShapeProblem(intent({ type: 'insert', payload: { name: 'items', index: 99_999_999 } }), schema),
  ).toMatch(/list index/)
  expect(
    formShapeProblem(
      intent({ type: 'update', payload: { name: 'items', index: 99_999_999, value: {} } }),
      schema,
    ),
  ).toMatch(/list index/)
  expect(
    formShapeProblem(intent({ type: 'reorder', payload: { name: 'items', from: 0, to: 1e9 } }), schema),
  ).toMatch(/list index/)
  expect(refusal(() => parseSubmission(form([['__intent__', '{not json']]), { schema }))).toEqual({
    status: 400,
    reason: 'errors.reasons.formMalformed',
  })
  expect(formShapeProblem(intent({ type: 'explode', payload: {} }), schema)).toMatch(/unknown/)
  expect(formShapeProblem(form([['__state__', '{']]), schema)).toMatch(/state/)
  const withFile = new FormData()
  withFile.append('__intent__', new File(['x'], 'x.txt'))
  expect(formShapeProblem(withFile, schema)).toMatch(/not text/)
})

test('a form within its limits parses as Conform always did', () => {
  const submission = parseSubmission(
    form([
      ['items[0].url', 'https://jp.mercari.com/item/m1'],
      ['items[0].quantity', '2'],
      ['note', 'hola'],
    ]),
    { schema: SubmitRequestSchema },
  )
  expect(submission.status).toBe('success')
})

test('names are read the way Conform reads them', () => {
  expect(parseName('items[2].url')).toEqual(['items', 2, 'url'])
  expect(parseName('a.b[0][1]')).toEqual(['a', 'b', 0, 1])
  expect(parseName('items[]')).toEqual(['items', ''])
  expect(parseName('items[1e9]')).toBeNull()
  expect(parseName('items[99999999999999999999]')).toEqual(['items', Number.MAX_SAFE_INTEGER])
})
