import { expect, test } from 'vitest'
import { CONTACT_LIMITS } from '#core/contact/contact-fields.ts'
import { contactMessages } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { TEST_APP_URL } from '#tests/support/accounts.ts'
import {
  createRouteContext,
  createTestServices,
  formPost,
  routeAnswer,
  routeArgs,
} from '#tests/support/route-context.ts'
import { action } from './contact.tsx'

// The contact action called directly, with the services on a real database: what it answers
// to bad input, and that nothing reaches the table then.

const VALID = {
  name: 'Ana Pérez',
  email: 'ana@example.com',
  subject: 'order',
  message: 'Can you buy a kimono from Kyoto for me?',
}

async function setup() {
  const { db, pool } = await createTestDatabase()
  const context = createRouteContext(await createTestServices(db, pool))
  const post = (fields: Record<string, string> | FormData) =>
    routeAnswer(() => action(routeArgs(formPost('/contact', fields), context)))
  const stored = () => db.select().from(contactMessages)
  return { post, stored, context }
}

/** The field errors of a refused submission (conform's reply). */
const fieldErrors = (data: unknown) => (data as { result: { error?: Record<string, string[]> } }).result.error

test('a valid message is stored and the browser is sent to the confirmation', async () => {
  const { post, stored } = await setup()
  const answer = await post(VALID)
  expect(answer.status).toBe(302)
  expect(answer.headers.get('location')).toBe('/contact?sent=1#contact-form')
  expect(await stored()).toEqual([
    expect.objectContaining({
      name: 'Ana Pérez',
      email: 'ana@example.com',
      subject: 'order',
      language: 'es',
    }),
  ])
})

test('an empty form is refused with 400 and an error on name, e-mail and message (the subject is optional); nothing is stored', async () => {
  const { post, stored } = await setup()
  const emptyForms: Record<string, string>[] = [
    {},
    { name: '', email: '', subject: '', message: '' },
    { name: '   ', email: ' ' },
  ]
  for (const fields of emptyForms) {
    const answer = await post(fields)
    expect(answer.status).toBe(400)
    expect(fieldErrors(answer.data)).toEqual({
      name: ['required'],
      email: ['required'],
      message: ['required'],
    })
  }
  expect(await stored()).toEqual([])
})

test('fields over their limits are refused by name, a short message is taken; nothing else is stored', async () => {
  const { post, stored } = await setup()
  const tooLong = await post({
    ...VALID,
    name: 'a'.repeat(CONTACT_LIMITS.name + 1),
    email: `${'a'.repeat(CONTACT_LIMITS.email)}@example.com`,
    message: 'm'.repeat(CONTACT_LIMITS.message + 1),
  })
  expect(tooLong.status).toBe(400)
  expect(fieldErrors(tooLong.data)).toEqual({ name: ['tooLong'], email: ['tooLong'], message: ['tooLong'] })

  // The spec requires a message, not a length: "Hola" is one.
  const short = await post({ ...VALID, message: 'Hola' })
  expect(short.status).toBe(302)

  // At the limits exactly, the same message is taken.
  const atLimits = await post({
    ...VALID,
    name: 'a'.repeat(CONTACT_LIMITS.name),
    message: 'm'.repeat(CONTACT_LIMITS.message),
  })
  expect(atLimits.status).toBe(302)
  expect(await stored()).toHaveLength(2)
})

test('values of the wrong kind are refused: a subject not on the list, a non-address, a file for a text field', async () => {
  const { post, stored } = await setup()
  const subject = await post({ ...VALID, subject: 'refund-now' })
  expect(subject.status).toBe(400)
  expect(fieldErrors(subject.data)).toEqual({ subject: ['subject'] })

  const email = await post({ ...VALID, email: 'ana at example dot com' })
  expect(email.status).toBe(400)
  expect(fieldErrors(email.data)).toEqual({ email: ['email'] })

  const withFile = new FormData()
  for (const [key, value] of Object.entries(VALID)) withFile.set(key, value)
  withFile.set(
    'message',
    new File(['a message in a file, long enough'], 'message.txt', { type: 'text/plain' }),
  )
  const file = await post(withFile)
  expect(file.status).toBe(400)
  expect(fieldErrors(file.data)).toEqual({ message: ['required'] })
  expect(await stored()).toEqual([])
})

test('hostile strings are refused by field: NUL and control characters, header injection in the address', async () => {
  const { post, stored } = await setup()
  const control = await post({
    ...VALID,
    name: 'Ana\u0000Pérez',
    message: 'Hello\u001b[31m there, a kimono please',
  })
  expect(control.status).toBe(400)
  expect(fieldErrors(control.data)).toEqual({ name: ['invalidCharacters'], message: ['invalidCharacters'] })

  for (const address of [
    'ana@example.com\r\nBcc: everyone@example.com',
    "x' OR '1'='1@example.com",
    '<script>@x.y',
  ]) {
    const answer = await post({ ...VALID, email: address })
    expect(answer.status, address).toBe(400)
    expect(fieldErrors(answer.data), address).toEqual({ email: ['email'] })
  }
  expect(await stored()).toEqual([])
})

test('markup and SQL in free text are kept as text, not refused and not interpreted', async () => {
  const { post, stored } = await setup()
  const message = `<script>alert(1)</script> '); DROP TABLE contact_messages; --`
  const answer = await post({ ...VALID, name: '<img src=x onerror=alert(1)>', message })
  expect(answer.status).toBe(302)
  expect(await stored()).toEqual([expect.objectContaining({ name: '<img src=x onerror=alert(1)>', message })])
})

test('a body that is not a form is refused with 400; nothing is stored', async () => {
  const { stored, context } = await setup()
  const request = new Request(new URL('/contact', TEST_APP_URL), {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=nothing-here' },
    body: 'not multipart at all',
  })
  const answer = await routeAnswer(() => action(routeArgs(request, context)))
  expect(answer.status).toBe(400)
  expect(answer.data).toEqual({
    result: { status: 'error', error: { '': ['contact.form.errors.unreadable'] } },
  })
  expect(await stored()).toEqual([])
})
