import { expect, test } from 'vitest'
import { openConversation, postMessage } from '#core/conversations/conversation-service.ts'
import type { OutgoingEmail } from '#core/notifications/mailer.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { createJobHandlers } from './jobs.ts'

// The grouped e-mail of a conversation (docs/decisions/048): a burst of messages is one e-mail
// per recipient, in their language; what was read in the app is not e-mailed.

const ana: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user', language: 'es' },
    { ...base, id: admin.id, name: 'Akiko', email: 'admin@example.com', role: 'admin', language: 'en' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator', language: 'es' },
  ])
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const owner = { kind: 'request' as const, id: quoted.requestId }
  const sent: OutgoingEmail[] = []
  const handlers = createJobHandlers({
    db,
    mailer: {
      kind: 'outbox',
      async send(email) {
        sent.push(email)
      },
    },
    contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/' },
    settings: orders.settings,
    appUrl: 'http://localhost:3000',
    jobs: () => orders.jobs,
  })
  /** Works every `conversation.email` job written so far, as the queue would once they are due. */
  const runEmailJobs = async () => {
    const { rows } = await pool.query(
      `SELECT id, data FROM pgboss.job WHERE name = 'conversation.email' AND state = 'created' ORDER BY created_on`,
    )
    for (const row of rows) {
      await handlers['conversation.email'](row.data, {
        id: row.id,
        attempt: 1,
        lastAttempt: false,
        signal: new AbortController().signal,
      })
      await pool.query(`UPDATE pgboss.job SET state = 'completed' WHERE id = $1`, [row.id])
    }
  }
  return { pool, orders, owner, sent, runEmailJobs }
}

test('a burst of three messages is one e-mail in the customer’s language; read in the app, none', async () => {
  const { orders, owner, sent, runEmailJobs, pool } = await setup()
  await postMessage(orders.as(admin), owner, { body: 'Hola Ana, una pregunta.' })
  await postMessage(orders.as(admin), owner, { body: '¿Quieres la M o la L?' })
  await postMessage(orders.as(moderator), owner, { body: 'Mira https://shop.example/tallas' })
  const { rows } = await pool.query(
    `SELECT data, start_after > now() + interval '1 minute' AS later FROM pgboss.job WHERE name = 'conversation.email'`,
  )
  // One job in the window, a few minutes later (or two, across a window's edge: still one e-mail).
  expect(rows.length).toBeGreaterThanOrEqual(1)
  expect(rows.every((row) => row.later)).toBe(true)
  await runEmailJobs()
  expect(sent).toHaveLength(1)
  expect(sent[0]?.to).toBe('ana@example.com')
  expect(sent[0]?.subject).toContain('Nuevo mensaje sobre tu solicitud')
  expect(sent[0]?.text).toContain('Tienes 3 mensajes nuevos')
  expect(sent[0]?.text).toContain('¿Quieres la M o la L?')
  expect(sent[0]?.text).toContain(`/user-dashboard/requests/${owner.id}#conversation`)

  // Another message, read in the app before its e-mail is due: no e-mail.
  await postMessage(orders.as(admin), owner, { body: 'Ya la compramos.' })
  await openConversation(orders.as(ana), owner)
  await runEmailJobs()
  expect(sent).toHaveLength(1)

  // The customer writes: staff get one e-mail each, in their language.
  await postMessage(orders.as(ana), owner, { body: 'Gracias' })
  await postMessage(orders.as(ana), owner, { body: 'La M' })
  await runEmailJobs()
  const staffMail = sent.slice(1)
  expect(staffMail.map((email) => email.to).sort()).toEqual(['admin@example.com', 'mod@example.com'])
  expect(staffMail.find((email) => email.to === 'admin@example.com')?.subject).toContain(
    'Ana Pérez wrote about request',
  )
  expect(staffMail.find((email) => email.to === 'admin@example.com')?.text).toContain(
    'There are 2 new messages',
  )
})
