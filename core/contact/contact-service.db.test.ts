import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { AppError } from '#core/shared/errors.ts'
import { contactMessages } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { startFormService } from '#tests/support/form-service.ts'
import { ContactMessageSchema } from './contact-schemas.ts'
import { CONTACT_RATE_LIMIT, createContactService, FORWARD_BACKOFF_SECONDS } from './contact-service.ts'

let formService: Awaited<ReturnType<typeof startFormService>>
beforeAll(async () => {
  formService = await startFormService()
})
afterAll(() => formService.close())

const message = (overrides: Record<string, string> = {}) =>
  ContactMessageSchema.parse({
    name: 'Ana Pérez',
    email: 'ana@example.com',
    subject: 'shipping',
    message: '¿Cuánto tarda un envío a Chile?',
    ...overrides,
  })

let clients = 0
const meta = () => ({ clientKey: `ip:10.0.0.${++clients}`, language: 'es' })

test('a message is stored first; without a form service key it is not forwarded', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: null, endpoint: formService.url } })
  const { id, forward } = await contact.submit(message(), meta())
  expect(forward).toBe(false)
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({
    name: 'Ana Pérez',
    subject: 'shipping',
    language: 'es',
    isSpam: false,
    forwardStatus: 'not_configured',
  })
})

test('a ticked bot-check is answered like a success, kept as spam and never forwarded', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: 'key', endpoint: formService.url } })
  const before = formService.received.length
  const { id } = await contact.submit(message({ botcheck: 'on' }), meta())
  expect(await contact.forwardPending()).toEqual({ sent: 0, failed: 0 })
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ isSpam: true, forwardStatus: 'skipped' })
  expect(formService.received.length).toBe(before)
})

test(`a client may send ${CONTACT_RATE_LIMIT.limit} messages per window, then is refused; others are not`, async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: null, endpoint: formService.url } })
  const client = meta()
  for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) await contact.submit(message(), client)
  const refused = await contact.submit(message(), client).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AppError)
  expect((refused as AppError).code).toBe('rate_limited')
  expect((refused as AppError).details.retryAfterSeconds).toBeGreaterThan(0)
  await expect(contact.submit(message(), meta())).resolves.toBeDefined()
  expect(await db.select().from(contactMessages)).toHaveLength(CONTACT_RATE_LIMIT.limit + 1)
})

test('forwarding posts the message with the access key; a failure is retried later and then sent', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({
    db,
    forwarding: { accessKey: 'test-key', endpoint: formService.url },
  })
  const { id } = await contact.submit(message({ message: 'Necesito ayuda con mi pedido 123.' }), meta())

  formService.setMode('http-error')
  expect(await contact.forwardPending()).toEqual({ sent: 0, failed: 1 })
  let [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'pending', forwardAttempts: 1 })
  expect(row?.lastError).toContain('HTTP 503')
  // Not due again before the back-off.
  expect(await contact.forwardPending()).toEqual({ sent: 0, failed: 0 })

  formService.setMode('ok')
  const later = new Date(Date.now() + (FORWARD_BACKOFF_SECONDS[0] ?? 0) * 1000 + 1000)
  expect(await contact.forwardPending(later)).toEqual({ sent: 1, failed: 0 })
  ;[row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'sent', forwardAttempts: 2, lastError: null })
  expect(formService.received.at(-1)).toMatchObject({
    access_key: 'test-key',
    botcheck: false,
    name: 'Ana Pérez',
    email: 'ana@example.com',
    message: 'Necesito ayuda con mi pedido 123.',
  })
})

test('a message is sent once even when several workers run at the same moment', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: 'k', endpoint: formService.url } })
  formService.setMode('ok')
  await contact.submit(message({ name: 'Concurrent Once' }), meta())
  const results = await Promise.all([
    contact.forwardPending(),
    contact.forwardPending(),
    contact.forwardPending(),
  ])
  expect(results.reduce((total, result) => total + result.sent, 0)).toBe(1)
  expect(formService.received.filter((body) => body.name === 'Concurrent Once')).toHaveLength(1)
})

test('a service that keeps refusing makes the message failed after the last retry, still stored', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: 'wrong', endpoint: formService.url } })
  formService.setMode('rejected')
  const { id } = await contact.submit(message(), meta())
  let now = new Date()
  for (let attempt = 0; attempt <= FORWARD_BACKOFF_SECONDS.length; attempt++) {
    await contact.forwardPending(now)
    now = new Date(now.getTime() + 25 * 3600 * 1000)
  }
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'failed', forwardAttempts: FORWARD_BACKOFF_SECONDS.length + 1 })
  expect(row?.lastError).toContain('invalid access key')
  formService.setMode('ok')
})

test('an unreachable service is a failure to retry, not a crash', async () => {
  const { db } = await createTestDatabase()
  const contact = createContactService({
    db,
    forwarding: { accessKey: 'k', endpoint: 'http://127.0.0.1:9/submit', timeoutMs: 2000 },
  })
  await contact.submit(message(), meta())
  expect(await contact.forwardPending()).toEqual({ sent: 0, failed: 1 })
})
