import { expect, test } from 'vitest'
import { ContactMessageSchema } from './contact-schemas.ts'

const valid = {
  name: 'Ana',
  email: 'ana@example.com',
  subject: 'general',
  message: 'Hola, quisiera saber más.',
}
const errorsOf = (input: Record<string, unknown>) => {
  const result = ContactMessageSchema.safeParse(input)
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

test('a valid message parses, trimmed, with the bot-check off', () => {
  expect(ContactMessageSchema.parse({ ...valid, name: '  Ana  ' })).toEqual({ ...valid, botcheck: false })
})

test('name, e-mail and message are required (the spec); no subject is a general inquiry', () => {
  expect(errorsOf({})).toEqual({
    name: 'required',
    email: 'required',
    message: 'required',
  })
  const { subject: _none, ...withoutSubject } = valid
  expect(ContactMessageSchema.parse(withoutSubject).subject).toBe('general')
  expect(errorsOf({ ...valid, name: '   ', message: '' })).toEqual({ name: 'required', message: 'required' })
})

test('e-mail format and length limits; a short message is still a message', () => {
  expect(errorsOf({ ...valid, email: 'not-an-email' })).toEqual({ email: 'email' })
  expect(errorsOf({ ...valid, name: 'x'.repeat(101) })).toEqual({ name: 'tooLong' })
  expect(errorsOf({ ...valid, message: 'x'.repeat(5001) })).toEqual({ message: 'tooLong' })
  expect(errorsOf({ ...valid, message: 'Hola' })).toEqual({})
  expect(errorsOf({ ...valid, email: `${'a'.repeat(250)}@example.com` })).toEqual({ email: 'tooLong' })
})

test('hostile input: control characters, an unknown subject, the wrong types', () => {
  expect(errorsOf({ ...valid, name: 'Ana\u0000' })).toEqual({ name: 'invalidCharacters' })
  expect(errorsOf({ ...valid, subject: 'refund-me' })).toEqual({ subject: 'subject' })
  expect(errorsOf({ ...valid, name: 42, message: ['a'] })).toEqual({ name: 'required', message: 'required' })
  expect(ContactMessageSchema.parse({ ...valid, message: 'Línea uno\nLínea dos\t✓ 日本' }).message).toContain(
    '日本',
  )
})

test('the bot-check is on when the hidden box is ticked', () => {
  expect(ContactMessageSchema.parse({ ...valid, botcheck: 'on' }).botcheck).toBe(true)
  expect(ContactMessageSchema.parse({ ...valid, botcheck: '' }).botcheck).toBe(false)
})
