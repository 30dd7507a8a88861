import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { callRoute, createTestServices, pageRequest, signedInCaller } from '#tests/support/route-context.ts'
import { middleware as layoutMiddleware } from './layout.tsx'
import * as outbox from './outbox.tsx'

// The admin panel's outbox, called as the server would: through the admin branch's middleware,
// for every role, with the outbox in use (a fresh `npm start`) and with providers configured.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  await pool.query(
    `INSERT INTO outbox_emails ("to", subject, text, html, created_at) VALUES
       ('ana@example.com', 'Tu cotización de PR-000001 está lista', 'Págala aquí: http://localhost:3000/user-dashboard/requests/1', '<p>x</p>', '2026-11-24T01:00:00Z'),
       ('bob@example.com', 'Verify your e-mail', 'Open http://localhost:3000/api/auth/verify-email?token=t', '<p>y</p>', '2026-11-24T02:00:00Z')`,
  )
  await pool.query(`INSERT INTO outbox_sms ("to", text) VALUES ('+56911112222', 'Your code: 123456')`)
  const read = (cookie?: string, keeps = { email: true, sms: true }) =>
    callRoute(
      services,
      layoutMiddleware,
      pageRequest('/admin-dashboard/outbox', { cookie }),
      (args) => outbox.loader(args as never),
      { context: { language: 'en', outbox: { ...services.outbox, keeps } } },
    )
  return { pool, read }
}

test('anonymous visitors get the login guard; customers and moderators the admin guard', async () => {
  const { pool, read } = await setup()
  expect(await read()).toMatchObject({
    status: 401,
    data: { guard: 'login', redirectTo: '/admin-dashboard/outbox' },
  })
  for (const role of ['user', 'moderator'] as const) {
    const { cookie } = await signedInCaller(pool, { email: `${role}@example.com`, role })
    expect(await read(cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
  }
})

test('with no provider configured, an admin reads the kept e-mails and texts, newest first, in Japan time', async () => {
  const { pool, read } = await setup()
  const { cookie } = await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' })
  const answer = await read(cookie)
  expect(answer.status).toBe(200)
  const page = answer.data as Awaited<ReturnType<typeof outbox.loader>>
  expect(page.keeps).toEqual({ email: true, sms: true })
  expect(page.emails.map((email) => [email.to, email.subject, email.when])).toEqual([
    ['bob@example.com', 'Verify your e-mail', 'Nov 24, 2026, 11:00 AM'],
    ['ana@example.com', 'Tu cotización de PR-000001 está lista', 'Nov 24, 2026, 10:00 AM'],
  ])
  expect(page.texts.map((sms) => [sms.to, sms.text])).toEqual([['+56911112222', 'Your code: 123456']])
})

test('once SMTP (or the SMS provider) is configured, what it sends is no longer shown', async () => {
  const { pool, read } = await setup()
  const { cookie } = await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' })
  const smtp = (await read(cookie, { email: false, sms: true })).data as Awaited<
    ReturnType<typeof outbox.loader>
  >
  expect(smtp.emails).toEqual([])
  expect(smtp.texts).toHaveLength(1)
  const both = (await read(cookie, { email: false, sms: false })).data as Awaited<
    ReturnType<typeof outbox.loader>
  >
  expect(both).toMatchObject({ keeps: { email: false, sms: false }, emails: [], texts: [] })
})
