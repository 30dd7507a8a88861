import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isAppError } from './errors.ts'
import { fieldNameOf, invalidInput } from './input-errors.ts'

describe('invalidInput', () => {
  const schema = z.object({
    name: z.string({ error: 'nameRequired' }),
    items: z.array(z.object({ url: z.string({ error: 'urlRequired' }).min(5, { error: 'urlTooShort' }) })),
  })
  const issues = () => {
    const parsed = schema.safeParse({ items: [{ url: 'ok-url' }, { url: 'x' }] })
    if (parsed.success) throw new Error('expected a refusal')
    return parsed.error.issues
  }

  it('puts each message key on its field, by Conform names, with the reason and message given', () => {
    const error = invalidInput(issues(), { message: 'Thing input refused', reason: 'thingInvalid' })
    expect(isAppError(error, 'invalid')).toBe(true)
    expect(error.message).toBe('Thing input refused')
    expect(error.details).toEqual({
      reason: 'thingInvalid',
      fieldErrors: { name: ['nameRequired'], 'items[1].url': ['urlTooShort'] },
    })
  })

  it('collects several messages on one field, and names fields another way when told', () => {
    const error = invalidInput(
      [
        { path: [], message: 'whole' },
        { path: ['a', 0], message: 'one' },
        { path: ['a', 0], message: 'two' },
      ],
      { message: 'm', reason: 'r', nameOf: (path) => path.map(String).join('.') || 'form' },
    )
    expect(error.details.fieldErrors).toEqual({ form: ['whole'], 'a.0': ['one', 'two'] })
  })

  it('names paths as Conform does', () => {
    expect(fieldNameOf(['items', 0, 'url'])).toBe('items[0].url')
    expect(fieldNameOf([])).toBe('')
  })
})
