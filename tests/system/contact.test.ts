import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { CONTACT_RATE_LIMIT } from '#core/contact/contact-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { startFormService } from '#tests/support/form-service.ts'
import { type ServerProcess, startServer } from './server-process.ts'

// The contact form through the running server, with a local HTTP server standing in for the
// external form service.
let server: ServerProcess
let database: Awaited<ReturnType<typeof createTestDatabase>>
let formService: Awaited<ReturnType<typeof startFormService>>
let dataDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  formService = await startFormService()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-contact-'))
  server = await startServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    CONTACT_FORM_ACCESS_KEY: 'system-test-key',
    CONTACT_FORM_ENDPOINT: formService.url,
  })
})

afterAll(async () => {
  await server?.stop()
  await formService?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

let sentMessages = 0
async function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'lang=en', ...headers },
    body: new URLSearchParams(fields),
  })
  if (response.status === 302) sentMessages += 1
  return response
}

const valid = {
  name: 'Lucía',
  email: 'lucia@example.com',
  subject: 'order',
  message: 'Hola, ¿recibieron mi paquete?',
}
const rows = async (name: string) =>
  (await database.pool.query('SELECT * FROM contact_messages WHERE name = $1 ORDER BY created_at', [name]))
    .rows

test('a message is stored, the visitor is sent to the confirmation, and it is forwarded with the key', async () => {
  const response = await post({ ...valid, name: 'Forward Me' })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/contact?sent=1#contact-form')
  const confirmation = await (
    await fetch(`${server.url}/contact?sent=1`, { headers: { cookie: 'lang=en' } })
  ).text()
  expect(confirmation).toContain('Message sent')

  await vi.waitFor(async () =>
    expect((await rows('Forward Me'))[0]).toMatchObject({ forward_status: 'sent', is_spam: false }),
  )
  expect(formService.received.find((body) => body.name === 'Forward Me')).toMatchObject({
    access_key: 'system-test-key',
    botcheck: false,
    email: 'lucia@example.com',
    message: valid.message,
  })
})

test('when the form service is down the message waits, and the worker sends it once it is back', async () => {
  formService.setMode('http-error')
  expect((await post({ ...valid, name: 'Retry Me' })).status).toBe(302)
  await vi.waitFor(async () =>
    expect((await rows('Retry Me'))[0]?.forward_attempts).toBeGreaterThanOrEqual(1),
  )
  expect((await rows('Retry Me'))[0]).toMatchObject({ forward_status: 'pending' })
  // Its job waits for the retry, with the back-off of the registry (1 minute first).
  const [message] = await rows('Retry Me')
  const job = async () =>
    (
      await database.pool.query(
        `SELECT state, start_after > now() + interval '20 seconds' AS later
           FROM pgboss.job WHERE name = 'contact.forward' AND data->>'messageId' = $1`,
        [message.id],
      )
    ).rows
  await vi.waitFor(async () => expect(await job()).toEqual([{ state: 'retry', later: true }]))

  formService.setMode('ok')
  // Make the retry due now instead of after the back-off.
  await database.pool.query(
    `UPDATE pgboss.job SET start_after = now() WHERE name = 'contact.forward' AND data->>'messageId' = $1`,
    [message.id],
  )
  await vi.waitFor(
    async () =>
      expect((await rows('Retry Me'))[0]).toMatchObject({ forward_status: 'sent', forward_attempts: 2 }),
    // Workers poll every 0.5 s; on a busy two-core machine a job can still wait several seconds.
    { timeout: 30_000 },
  )
  // The row is marked sent inside the handler; pg-boss completes the job just after it returns.
  await vi.waitFor(async () => expect(await job()).toEqual([expect.objectContaining({ state: 'completed' })]))
})

test('a ticked bot-check looks like a success but stays out of the inbox and is never forwarded', async () => {
  const response = await post({ ...valid, name: 'Bot Tick', botcheck: 'on' })
  expect(response.status).toBe(302)
  const [message] = await rows('Bot Tick')
  expect(message).toMatchObject({ is_spam: true, forward_status: 'skipped' })
  // Forwarding is only ever done by a contact.forward job: none was written for it, so none can
  // run later (no need to wait and watch the form service).
  const jobs = await database.pool.query(
    `SELECT id FROM pgboss.job WHERE name = 'contact.forward' AND data->>'messageId' = $1`,
    [message.id],
  )
  expect(jobs.rows).toEqual([])
  expect(formService.received.some((body) => body.name === 'Bot Tick')).toBe(false)
})

test('bad input is a 400 with translated messages and writes nothing', async () => {
  const before = (await database.pool.query('SELECT count(*)::int AS n FROM contact_messages')).rows[0].n
  const tooLong = await post({ ...valid, name: 'x'.repeat(101), message: 'y'.repeat(5001) })
  expect(tooLong.status).toBe(400)
  const html = await tooLong.text()
  expect(html).toContain('Use at most 100 characters.')
  expect(html).toContain('Use at most 5000 characters.')

  const hostile = await post(
    { name: 'Null\u0000Byte', email: 'a@b', subject: 'refund', message: '<script>x</script>' },
    { cookie: 'lang=es' },
  )
  expect(hostile.status).toBe(400)
  const spanish = await hostile.text()
  expect(spanish).toContain('Quita los caracteres no válidos.')
  expect(spanish).toContain('Elige un asunto.')
  expect(spanish).not.toContain('<script>x</script>')

  expect((await post({})).status).toBe(400)
  expect((await database.pool.query('SELECT count(*)::int AS n FROM contact_messages')).rows[0].n).toBe(
    before,
  )
})

test('name, e-mail and a short message are enough: no subject is stored and forwarded as a general inquiry', async () => {
  const { subject: _none, ...withoutSubject } = valid
  const response = await post({ ...withoutSubject, name: 'No Subject', message: 'Hola' })
  expect(response.status).toBe(302)
  await vi.waitFor(
    async () =>
      expect((await rows('No Subject'))[0]).toMatchObject({ subject: 'general', forward_status: 'sent' }),
    // The forward is a job: on a busy two-core machine it may wait several seconds.
    { timeout: 30_000 },
  )
  expect(formService.received.find((body) => body.name === 'No Subject')).toMatchObject({
    subject: '[general] No Subject',
  })
})

test('a cross-origin post is refused', async () => {
  const response = await post({ ...valid, name: 'Cross Origin' }, { origin: 'https://evil.example' })
  expect(response.status).toBeGreaterThanOrEqual(400)
  expect(response.status).toBeLessThan(500)
  expect(await rows('Cross Origin')).toEqual([])
})

test(`after ${CONTACT_RATE_LIMIT.limit} messages from one address the next is refused with 429 and a translated message`, async () => {
  let response = await post({ ...valid, name: 'Rate Limit' })
  while (response.status === 302) response = await post({ ...valid, name: 'Rate Limit' })
  expect(response.status).toBe(429)
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await response.text()).toContain('You have sent several messages in a short time.')
  expect(sentMessages).toBe(CONTACT_RATE_LIMIT.limit)
})
