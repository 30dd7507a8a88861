import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { JOBS } from '#core/jobs/registry.ts'
import { AppError } from '#core/shared/errors.ts'
import { contactMessages } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { startFormService } from '#tests/support/form-service.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import { ContactMessageSchema } from './contact-schemas.ts'
import {
  CONTACT_RATE_LIMIT,
  type ContactForwarding,
  createContactService,
  forwardContactMessage,
} from './contact-service.ts'

// One database and one started queue that does not work its jobs, for the file: submit writes real
// jobs, read back from pgboss.job by message id; the attempts are run by calling the handler.
let formService: Awaited<ReturnType<typeof startFormService>>
let database: Awaited<ReturnType<typeof createTestDatabase>>
let queue: Awaited<ReturnType<typeof startTestJobQueue>>
beforeAll(async () => {
  formService = await startFormService()
  database = await createTestDatabase()
  queue = await startTestJobQueue(database.pool)
})
afterAll(async () => {
  await queue.stop({ timeoutMs: 1000 })
  await formService.close()
})

const message = (overrides: Record<string, string> = {}) =>
  ContactMessageSchema.parse({
    name: 'Ana Pérez',
    email: 'ana@example.com',
    subject: 'shipping',
    message: '¿Cuánto tarda un envío a Chile?',
    ...overrides,
  })

const forwardJobs = async (messageId: string) =>
  (
    await database.pool.query(
      `SELECT data FROM pgboss.job WHERE name = 'contact.forward' AND data->>'messageId' = $1`,
      [messageId],
    )
  ).rows.map((row) => row.data as { messageId: string })
const attempt = { lastAttempt: false, signal: new AbortController().signal }
const lastAttempt = { ...attempt, lastAttempt: true }

let clients = 0
const meta = () => ({ clientKey: `ip:10.0.0.${++clients}`, language: 'es' })

test('a message is stored first; without a form service key it is not forwarded', async () => {
  const { db } = database
  const contact = createContactService({ db, forwarding: { accessKey: null }, jobs: queue })
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
  expect(await forwardJobs(id)).toEqual([])
})

test('a message to forward is stored with its contact.forward job, in one transaction', async () => {
  const contact = createContactService({
    db: database.db,
    forwarding: { accessKey: 'key' },
    jobs: queue,
  })
  const { id, forward } = await contact.submit(message(), meta())
  expect(forward).toBe(true)
  expect(await forwardJobs(id)).toEqual([{ messageId: id }])
  const [row] = await database.db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'pending', forwardAttempts: 0 })

  // A job that cannot be written takes the message with it: never a pending message without a job.
  const broken = createContactService({
    db: database.db,
    forwarding: { accessKey: 'key' },
    jobs: {
      enqueue: async () => {
        throw new Error('queue unavailable')
      },
    },
  })
  await expect(broken.submit(message({ name: 'No Job' }), meta())).rejects.toThrow('queue unavailable')
  expect(await database.db.select().from(contactMessages).where(eq(contactMessages.name, 'No Job'))).toEqual(
    [],
  )
})

test('a ticked bot-check is answered like a success, kept as spam and never forwarded', async () => {
  const { db } = database
  const contact = createContactService({
    db,
    forwarding: { accessKey: 'key' },
    jobs: queue,
  })
  const before = formService.received.length
  const { id } = await contact.submit(message({ botcheck: 'on' }), meta())
  expect(await forwardJobs(id)).toEqual([])
  expect(await forwardContactMessage({ db, forwarding: forwardingTo('key') }, id, attempt)).toBe('done')
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ isSpam: true, forwardStatus: 'skipped' })
  expect(formService.received.length).toBe(before)
})

test(`a client may send ${CONTACT_RATE_LIMIT.limit} messages per window, then is refused; others are not`, async () => {
  // Its own database: the test counts every stored message.
  const { db } = await createTestDatabase()
  const contact = createContactService({ db, forwarding: { accessKey: null }, jobs: noJobs })
  const client = meta()
  for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) await contact.submit(message(), client)
  const refused = await contact.submit(message(), client).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AppError)
  expect((refused as AppError).code).toBe('rate_limited')
  expect((refused as AppError).details.retryAfterSeconds).toBeGreaterThan(0)
  await expect(contact.submit(message(), meta())).resolves.toBeDefined()
  expect(await db.select().from(contactMessages)).toHaveLength(CONTACT_RATE_LIMIT.limit + 1)
})

test('forwarding posts the message with the access key; a failed attempt is recorded and thrown for a retry, which sends it', async () => {
  const { db } = database
  const forwarding = forwardingTo('test-key')
  const contact = createContactService({ db, forwarding, jobs: queue })
  const { id } = await contact.submit(message({ message: 'Necesito ayuda con mi pedido 123.' }), meta())

  formService.setMode('http-error')
  await expect(forwardContactMessage({ db, forwarding }, id, attempt)).rejects.toThrow('HTTP 503')
  let [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'pending', forwardAttempts: 1, nextAttemptAt: null })
  expect(row?.lastError).toContain('HTTP 503')

  formService.setMode('ok')
  expect(await forwardContactMessage({ db, forwarding }, id, attempt)).toBe('sent')
  ;[row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'sent', forwardAttempts: 2, lastError: null })
  expect(formService.received.at(-1)).toMatchObject({
    access_key: 'test-key',
    botcheck: false,
    name: 'Ana Pérez',
    email: 'ana@example.com',
    message: 'Necesito ayuda con mi pedido 123.',
  })
  // A repeated delivery of the job finds the message sent and posts nothing.
  const sent = formService.received.length
  expect(await forwardContactMessage({ db, forwarding }, id, attempt)).toBe('done')
  expect(formService.received.length).toBe(sent)
})

test('a message is sent once even when several attempts run at the same moment', async () => {
  const { db } = database
  const forwarding = forwardingTo('k')
  const contact = createContactService({ db, forwarding, jobs: queue })
  formService.setMode('ok')
  const { id } = await contact.submit(message({ name: 'Concurrent Once' }), meta())
  const results = await Promise.allSettled([
    forwardContactMessage({ db, forwarding }, id, attempt),
    forwardContactMessage({ db, forwarding }, id, attempt),
    forwardContactMessage({ db, forwarding }, id, attempt),
  ])
  expect(results.filter((result) => result.status === 'fulfilled' && result.value === 'sent')).toHaveLength(1)
  expect(formService.received.filter((body) => body.name === 'Concurrent Once')).toHaveLength(1)
})

test('a service that keeps refusing makes the message failed on the last try, still stored', async () => {
  const { db } = database
  const forwarding = forwardingTo('wrong')
  const contact = createContactService({ db, forwarding, jobs: queue })
  formService.setMode('rejected')
  const { id } = await contact.submit(message(), meta())
  const tries = JOBS['contact.forward'].retryLimit + 1
  for (let n = 1; n <= tries; n++) {
    await expect(
      forwardContactMessage({ db, forwarding }, id, n === tries ? lastAttempt : attempt),
    ).rejects.toThrow('invalid access key')
    const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
    expect(row?.forwardStatus).toBe(n === tries ? 'failed' : 'pending')
  }
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'failed', forwardAttempts: tries })
  expect(row?.lastError).toContain('invalid access key')
  formService.setMode('ok')
})

test('an unreachable service is a failure to retry, not a crash', async () => {
  const { db } = database
  const forwarding = { accessKey: 'k', endpoint: 'http://127.0.0.1:9/submit', timeoutMs: 2000 }
  const contact = createContactService({ db, forwarding, jobs: queue })
  const { id } = await contact.submit(message(), meta())
  await expect(forwardContactMessage({ db, forwarding }, id, attempt)).rejects.toThrow('not forwarded')
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  expect(row).toMatchObject({ forwardStatus: 'pending', forwardAttempts: 1 })
})

test('through the queue: the submitted message is forwarded by the contact.forward worker', async () => {
  const { db } = database
  const forwarding = forwardingTo('queue-key')
  formService.setMode('ok')
  const worker = await startTestJobQueue(database.pool, {
    work: true,
    pollingIntervalSeconds: 0.5,
    handlers: {
      'contact.forward': async ({ messageId }, job) => {
        await forwardContactMessage({ db, forwarding }, messageId, job)
      },
    },
  })
  try {
    const contact = createContactService({ db, forwarding, jobs: worker })
    const { id } = await contact.submit(message({ name: 'Via Queue' }), meta())
    await vi.waitFor(
      async () => {
        const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
        expect(row).toMatchObject({ forwardStatus: 'sent', forwardAttempts: 1 })
      },
      { timeout: 10_000, interval: 100 },
    )
    expect(formService.received.filter((body) => body.name === 'Via Queue')).toHaveLength(1)
  } finally {
    await worker.stop({ timeoutMs: 2000 })
  }
})

const forwardingTo = (accessKey: string): ContactForwarding => ({ accessKey, endpoint: formService.url })
const noJobs = {
  enqueue: async () => {
    throw new Error('no job expected')
  },
}

test('an attempt whose process died after posting: the retry waits out its lease and posts again with the same Idempotency-Key, which a receiver that honours it keeps once', async () => {
  const { db } = database
  // A receiver that honours the key: a repeat is answered as a success and not kept again.
  const posts: { key: string | null; body: Record<string, unknown> }[] = []
  const kept = new Map<string, Record<string, unknown>>()
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const key = req.headers['idempotency-key']
      const parsed = JSON.parse(body) as Record<string, unknown>
      posts.push({ key: typeof key === 'string' ? key : null, body: parsed })
      if (typeof key === 'string' && !kept.has(key)) kept.set(key, parsed)
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ success: true }))
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as AddressInfo
  const endpoint = `http://127.0.0.1:${port}/submit`
  try {
    // 1 s per POST: a lease of 3 s.
    const forwarding: ContactForwarding = { accessKey: 'k', endpoint, timeoutMs: 1000 }
    const contact = createContactService({ db, forwarding, jobs: queue })
    const { id } = await contact.submit(message({ name: 'Died After Posting' }), meta())
    // The first attempt posts, the receiver keeps it, and the process dies before it hears back:
    // its fetch never settles (nor heeds its timeout), so the row is never updated.
    let posted: () => void = () => {}
    const postedOnce = new Promise<void>((resolve) => {
      posted = resolve
    })
    const dying = forwardContactMessage(
      {
        db,
        forwarding: {
          ...forwarding,
          fetch: async (input, init) => {
            await fetch(input, { ...init, signal: null })
            posted()
            return new Promise<Response>(() => {})
          },
        },
      },
      id,
      attempt,
    )
    void dying.catch(() => {})
    await postedOnce
    // The retry comes at once (the job's lease lapsed): it waits for the message's lease, then posts.
    const began = performance.now()
    expect(await forwardContactMessage({ db, forwarding }, id, attempt)).toBe('sent')
    const waited = performance.now() - began
    expect(waited).toBeGreaterThan(1000)
    expect(waited).toBeLessThan(5000)
    expect(posts).toHaveLength(2)
    expect(posts.map((post) => post.key)).toEqual([`contact-message-${id}`, `contact-message-${id}`])
    expect([...kept.values()].map((body) => body.name)).toEqual(['Died After Posting'])
    const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
    expect(row).toMatchObject({ forwardStatus: 'sent', forwardAttempts: 1, nextAttemptAt: null })
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
})
