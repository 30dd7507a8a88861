import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { exportAccountData } from '#core/accounts/data-export.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { createWhatsAppClient } from '#core/whatsapp/client.ts'
import { whatsappConfigFromEnv } from '#core/whatsapp/config.ts'
import { sendWhatsAppMessage } from '#core/whatsapp/dispatch.ts'
import {
  confirmWhatsAppCode,
  getWhatsAppState,
  saveWhatsAppPreferences,
  startWhatsAppOptIn,
  stopWhatsApp,
  WHATSAPP_LIMITS,
} from '#core/whatsapp/opt-in.ts'
import { notifications, users, whatsappContacts, whatsappMessages } from '#db/schema/index.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/support/whatsapp-stand-in/server.ts'
import { whatsappWebhook } from './whatsapp-webhook.ts'

// The whole WhatsApp path against the local stand-in of the Cloud API: opting in with a code,
// updates sent as templates by the whatsapp.send job, receipts and STOP through the signed webhook
// (mounted on a real HTTP server), and the e-mail when WhatsApp cannot deliver.

let standIn: WhatsAppStandIn
let webhookServer: ReturnType<typeof createServer>
beforeAll(async () => {
  standIn = await startWhatsAppStandIn()
})
afterAll(async () => {
  await standIn.close()
  await new Promise((resolve) => webhookServer?.close(resolve))
})

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const ANA_PHONE = '+5215512345678'

async function setup() {
  const { db, pool } = await createTestDatabase()
  const jobs = await startTestJobQueue(pool)
  onFileCleanup(() => jobs.stop({ timeoutMs: 1000 }))
  const config = whatsappConfigFromEnv(standIn.env)
  if (!config) throw new Error('stand-in env not read')
  const client = createWhatsAppClient(config)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana', email: 'ana@example.com', role: 'user', language: 'es' },
    { ...base, id: bruno.id, name: 'Bruno', email: 'bruno@example.com', role: 'user', language: 'en' },
  ])
  const app = express()
  app.use('/api', whatsappWebhook({ db, jobs, client }))
  webhookServer = createServer(app)
  await new Promise<void>((resolve) => webhookServer.listen(0, '127.0.0.1', resolve))
  standIn.webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/api/whatsapp/webhook`
  const as = (actor: Actor | null) => ({ db, actor })
  const queued = async (name: string) =>
    (await pool.query(`select data from pgboss.job where name = $1 order by created_on`, [name])).rows.map(
      (row) => row.data,
    )
  /** Runs every whatsapp.send job queued so far, as the worker would (first attempt). */
  const work = async (lastAttempt = false) => {
    const outcomes = []
    for (const { messageId } of await queued('whatsapp.send')) {
      outcomes.push(
        await sendWhatsAppMessage({ db, jobs, client }, messageId, { lastAttempt }).catch((error) => error),
      )
    }
    await pool.query(`delete from pgboss.job where name = 'whatsapp.send'`)
    return outcomes
  }
  const optIn = async (actor: Actor, phone: string, language: 'es' | 'en' = 'es') => {
    await startWhatsAppOptIn(as(actor), client, { phone, language })
    const code = standIn.lastCode(phone.replace(/\s/g, ''))
    if (!code) throw new Error('no code sent')
    await confirmWhatsAppCode(as(actor), client, { code })
  }
  const notify = (userId: string, type: Parameters<typeof notifyCustomer>[2]['type'], params = {}) =>
    db.transaction((tx) =>
      notifyCustomer(tx, jobs, { userId, type, params, link: '/user-dashboard/requests/r1' }),
    )
  const send = (messageId: string, lastAttempt = false) =>
    sendWhatsAppMessage({ db, jobs, client }, messageId, { lastAttempt })
  return { db, pool, jobs, client, as, queued, work, optIn, notify, send }
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details.reason }
    throw error
  }
  throw new Error('expected a refusal')
}

test('opted in: quote, payment, arrival and tracking go as WhatsApp templates, no e-mail; after STOP none', async () => {
  const { as, optIn, notify, work, queued, db } = await setup()
  await optIn(ana, '+52 1 55 1234 5678')
  expect(await getWhatsAppState(as(ana))).toMatchObject({ status: 'active', phone: ANA_PHONE })
  const before = standIn.sent.length
  await notify(ana.id, 'quote_ready', { number: 'PR-000001', invoice: 'INV-1', totalJpy: 12500 })
  await notify(ana.id, 'payment_received', { number: 'PR-000001', amountJpy: 12500 })
  await notify(ana.id, 'items_arrived', { number: 'PR-000001', packageNumber: 'PK-1', count: 3 })
  await notify(ana.id, 'shipment_shipped', { number: 'SH-000001', carrier: 'EMS', tracking: 'EJ123456789JP' })
  expect(await queued('notification.email')).toHaveLength(0)
  expect(await work()).toEqual(['sent', 'sent', 'sent', 'sent'])
  const sent = standIn.sent.slice(before)
  expect(sent.map((m) => m.template)).toEqual([
    'order_quote_ready',
    'order_payment_received',
    'order_items_arrived',
    'order_shipment_shipped',
  ])
  expect(sent.every((m) => m.to === ANA_PHONE && m.language === 'es')).toBe(true)
  expect(sent[0]?.body).toEqual(['PR-000001', expect.stringMatching(/JPY\s?12,500/)])
  expect(sent[3]?.body).toEqual(['SH-000001', 'EMS', 'EJ123456789JP'])
  expect(sent[0]?.button).toEqual(['user-dashboard/requests/r1'])
  const rows = await db.select().from(whatsappMessages).where(eq(whatsappMessages.userId, ana.id))
  expect(rows.every((row) => row.status === 'sent' && row.wamid?.startsWith('wamid.'))).toBe(true)

  // An update not on WhatsApp (no category) still goes by e-mail.
  await notify(ana.id, 'request_received', { number: 'PR-000002' })
  expect(await queued('notification.email')).toHaveLength(1)

  // A message queued, then STOP from the phone: it is not sent, the e-mail goes instead.
  await notify(ana.id, 'items_arrived', { number: 'PR-000001', packageNumber: 'PK-2', count: 1 })
  const stop = await standIn.sendInbound({ from: ANA_PHONE, text: ' Stop ' })
  expect(stop.status).toBe(200)
  expect((await getWhatsAppState(as(ana)))?.status).toBe('stopped')
  const count = standIn.sent.length
  expect(await work()).toEqual(['skipped'])
  expect(standIn.sent.length).toBe(count)
  expect(await queued('notification.email')).toHaveLength(2)
  // And later updates: e-mail only, no WhatsApp job.
  await notify(ana.id, 'shipment_shipped', { number: 'SH-2', carrier: 'EMS', tracking: 'EJ2' })
  expect(await queued('whatsapp.send')).toHaveLength(0)
  expect(await queued('notification.email')).toHaveLength(3)

  // "Download my data" has the number and each message, never the code's hash.
  const exported = await exportAccountData(db, ana.id)
  expect(exported?.whatsapp.number).toMatchObject({ phone: ANA_PHONE, status: 'stopped' })
  expect(exported?.whatsapp.messages.map((m) => m.status)).toEqual([
    'sent',
    'sent',
    'sent',
    'sent',
    'skipped',
  ])
  expect(JSON.stringify(exported)).not.toContain('codeHash')
})

test('PARAR and BAJA stop too; a replayed inbound message is harmless; other words change nothing', async () => {
  const { as, optIn } = await setup()
  await optIn(ana, ANA_PHONE)
  expect((await standIn.sendInbound({ from: ANA_PHONE, text: 'Hola, ¿dónde está mi pedido?' })).status).toBe(
    200,
  )
  expect((await getWhatsAppState(as(ana)))?.status).toBe('active')
  expect((await standIn.sendInbound({ from: ANA_PHONE, text: 'parar', id: 'wamid.in.1' })).status).toBe(200)
  expect((await getWhatsAppState(as(ana)))?.status).toBe('stopped')
  await optIn(ana, ANA_PHONE)
  // The same delivery again (Meta redelivers): already handled, nothing stopped this time.
  expect((await standIn.sendInbound({ from: ANA_PHONE, text: 'parar', id: 'wamid.in.1' })).status).toBe(200)
  expect((await getWhatsAppState(as(ana)))?.status).toBe('active')
  await standIn.sendInbound({ from: ANA_PHONE, text: 'BAJA' })
  expect((await getWhatsAppState(as(ana)))?.status).toBe('stopped')
})

test('STOP from the number as WhatsApp writes it stops it as the customer typed it (Mexico +52 1, Brazil 9th digit)', async () => {
  const { as, optIn } = await setup()
  await optIn(ana, '+525512345678')
  await optIn(bruno, '+5511987654321')
  // Meta's wa_id keeps Mexico's old 1; the customer typed the number without it.
  await standIn.sendInbound({ from: '+5215512345678', text: 'STOP' })
  expect((await getWhatsAppState(as(ana)))?.status).toBe('stopped')
  expect((await getWhatsAppState(as(bruno)))?.status).toBe('active')
  // An older Brazilian account's wa_id lacks the ninth digit.
  await standIn.sendInbound({ from: '+551187654321', text: 'PARAR' })
  expect((await getWhatsAppState(as(bruno)))?.status).toBe('stopped')
})

test('the opt-in code: wrong, expired, too many tries, too many codes, and only for oneself', async () => {
  const { as, client, db } = await setup()
  expect(
    await refusal(startWhatsAppOptIn(as(null), client, { phone: ANA_PHONE, language: 'es' })),
  ).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(startWhatsAppOptIn(as(ana), client, { phone: '5512345678', language: 'es' }))).toEqual(
    {
      code: 'invalid',
      reason: 'phoneInvalid',
    },
  )
  expect(await refusal(startWhatsAppOptIn(as(ana), client, { phone: '', language: 'es' }))).toEqual({
    code: 'invalid',
    reason: 'phoneRequired',
  })
  await startWhatsAppOptIn(as(ana), client, { phone: ANA_PHONE, language: 'en' })
  const code = standIn.lastCode(ANA_PHONE) ?? ''
  expect(code).toMatch(/^\d{6}$/)
  const wrong = code === '000000' ? '000001' : '000000'
  // Bruno cannot use Ana's code: he has no code pending.
  expect(await refusal(confirmWhatsAppCode(as(bruno), client, { code }))).toEqual({
    code: 'invalid',
    reason: 'codeExpired',
  })
  expect(await refusal(confirmWhatsAppCode(as(ana), client, { code: 'abc' }))).toEqual({
    code: 'invalid',
    reason: 'codeInvalid',
  })
  for (let i = 1; i < WHATSAPP_LIMITS.attempts; i++) {
    expect(await refusal(confirmWhatsAppCode(as(ana), client, { code: wrong }))).toEqual({
      code: 'invalid',
      reason: 'codeWrong',
    })
  }
  // The fifth wrong try uses the code up: even the right one is refused after.
  expect(await refusal(confirmWhatsAppCode(as(ana), client, { code: wrong }))).toEqual({
    code: 'invalid',
    reason: 'codeExpired',
  })
  expect(await refusal(confirmWhatsAppCode(as(ana), client, { code }))).toEqual({
    code: 'invalid',
    reason: 'codeExpired',
  })
  expect((await getWhatsAppState(as(ana)))?.status).toBe('pending')

  // A code 10 minutes old is expired.
  await startWhatsAppOptIn(as(ana), client, { phone: ANA_PHONE, language: 'es' })
  const second = standIn.lastCode(ANA_PHONE) ?? ''
  const later = new Date(Date.now() + WHATSAPP_LIMITS.codeMinutes * 60_000 + 1000)
  expect(await refusal(confirmWhatsAppCode(as(ana), client, { code: second }, later))).toEqual({
    code: 'invalid',
    reason: 'codeExpired',
  })
  // Three codes an hour: the fourth is refused with a wait.
  await startWhatsAppOptIn(as(ana), client, { phone: ANA_PHONE, language: 'es' })
  expect(await refusal(startWhatsAppOptIn(as(ana), client, { phone: ANA_PHONE, language: 'es' }))).toEqual({
    code: 'rate_limited',
    reason: 'whatsappTooManyCodes',
  })
  // The code is stored hashed, never as sent.
  const [row] = await db.select().from(whatsappContacts).where(eq(whatsappContacts.userId, ana.id))
  expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/)
  expect(row?.codeHash).not.toContain(standIn.lastCode(ANA_PHONE) ?? 'x')
})

test('one number gets at most 5 codes an hour, however many accounts ask for it', async () => {
  const { as, client, db } = await setup()
  const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 60_000)
  const base = { emailVerified: true, createdAt: now, updatedAt: now, role: 'user' }
  const many = Array.from({ length: 6 }, (_, i) => ({ id: `user-flood-${i}`, role: 'user' as const }))
  await db
    .insert(users)
    .values(many.map((actor, i) => ({ ...base, id: actor.id, name: `F${i}`, email: `f${i}@example.com` })))
  const victim = '+5215598765432'
  const before = standIn.sent.length
  for (const actor of many.slice(0, WHATSAPP_LIMITS.codesPerNumberPerHour)) {
    await startWhatsAppOptIn(as(actor), client, { phone: victim, language: 'es' }, now)
  }
  const sixth = many[5] as Actor
  expect(
    await refusal(startWhatsAppOptIn(as(sixth), client, { phone: victim, language: 'es' }, now)),
  ).toEqual({
    code: 'rate_limited',
    reason: 'whatsappTooManyCodes',
  })
  expect(standIn.sent.length - before).toBe(WHATSAPP_LIMITS.codesPerNumberPerHour)
  // Nothing pending was written for the refused account; it may still use its own number.
  expect(await getWhatsAppState(as(sixth))).toBeNull()
  await startWhatsAppOptIn(as(sixth), client, { phone: '+5215511112222', language: 'es' }, now)
  expect((await getWhatsAppState(as(sixth)))?.status).toBe('pending')
})

test('a number not on WhatsApp is refused at opt-in; preferences choose the updates; stop by button', async () => {
  const { as, client, optIn, notify, queued, work } = await setup()
  standIn.undeliverable.add('+5491112345678')
  expect(
    await refusal(startWhatsAppOptIn(as(bruno), client, { phone: '+54 9 11 1234 5678', language: 'en' })),
  ).toEqual({
    code: 'invalid',
    reason: 'notOnWhatsApp',
  })
  expect(await refusal(saveWhatsAppPreferences(as(bruno), { categories: ['quote'] }))).toMatchObject({
    code: 'conflict',
  })
  await optIn(bruno, '+14155550123', 'en')
  expect((await getWhatsAppState(as(bruno)))?.categories).toEqual([
    'quote',
    'payment',
    'arrival',
    'shipped',
    'refund',
    'message',
  ])
  expect(
    await refusal(saveWhatsAppPreferences(as(bruno), { categories: ['marketing' as 'quote'] })),
  ).toMatchObject({ code: 'invalid', reason: 'categoryInvalid' })
  await saveWhatsAppPreferences(as(bruno), { categories: ['shipped'] })
  await notify(bruno.id, 'quote_ready', { number: 'PR-9', invoice: 'I', totalJpy: 100 })
  await notify(bruno.id, 'shipment_shipped', { number: 'SH-9', carrier: 'DHL', tracking: '123' })
  expect(await queued('whatsapp.send')).toHaveLength(1)
  expect(await queued('notification.email')).toHaveLength(1)
  const before = standIn.sent.length
  expect(await work()).toEqual(['sent'])
  expect(standIn.sent.at(-1)).toMatchObject({
    template: 'order_shipment_shipped',
    language: 'en',
    body: ['SH-9', 'DHL', '123'],
  })
  expect(standIn.sent.length).toBe(before + 1)
  await stopWhatsApp(as(bruno))
  await notify(bruno.id, 'shipment_shipped', { number: 'SH-10', carrier: 'DHL', tracking: '124' })
  expect(await queued('whatsapp.send')).toHaveLength(0)
})

test('rate limits and Meta errors are retried; permanent failures and the last try fall back to e-mail', async () => {
  const { optIn, notify, work, queued, db, send } = await setup()
  await optIn(ana, ANA_PHONE)
  // Rate limited once, then fine: the job throws (the queue retries), the retry sends.
  await notify(ana.id, 'payment_received', { number: 'PR-1', amountJpy: 500 })
  standIn.rateLimitNext(1)
  const [first] = await work()
  expect(first).toMatchObject({ name: 'WhatsAppSendError', kind: 'retry', code: 130429 })
  const [message] = await db.select().from(whatsappMessages).where(eq(whatsappMessages.status, 'queued'))
  expect(await send(message?.id ?? '')).toBe('sent')
  // A second run of the same job (at-least-once delivery) sends nothing more.
  const count = standIn.sent.length
  expect(await send(message?.id ?? '')).toBe('done')
  expect(standIn.sent.length).toBe(count)
  expect(await queued('notification.email')).toHaveLength(0)

  // Meta down on the last try: failed, the e-mail goes.
  await notify(ana.id, 'payment_received', { number: 'PR-2', amountJpy: 600 })
  standIn.failNext(1)
  expect(await work(true)).toEqual(['failed'])
  expect(await queued('notification.email')).toHaveLength(1)

  // The number stopped marketing at Meta (131050): failed at once, e-mail.
  standIn.optedOut.add(ANA_PHONE)
  await notify(ana.id, 'refund_sent', { number: 'PR-3', amountJpy: 700 })
  expect(await work()).toEqual(['failed'])
  const [failed] = await db.select().from(whatsappMessages).where(eq(whatsappMessages.errorCode, 131050))
  expect(failed).toMatchObject({ status: 'failed' })
  expect(failed?.fallbackAt).toBeInstanceOf(Date)
  expect(await queued('notification.email')).toHaveLength(2)
  standIn.optedOut.delete(ANA_PHONE)

  // A notification missing a param its template needs: not sent, e-mail.
  await notify(ana.id, 'quote_ready', { number: 'PR-4' })
  expect(await work()).toEqual(['failed'])
  expect(await queued('notification.email')).toHaveLength(3)
})

test('receipts: stored once, never back from read to delivered; a failed receipt sends the e-mail once', async () => {
  const { optIn, notify, work, queued, db } = await setup()
  await optIn(ana, ANA_PHONE)
  await notify(ana.id, 'items_arrived', { number: 'PR-1', packageNumber: 'P', count: 2 })
  await notify(ana.id, 'items_arrived', { number: 'PR-2', packageNumber: 'Q', count: 1 })
  await work()
  const [one, two] = await db.select().from(whatsappMessages).orderBy(whatsappMessages.createdAt)
  const wamid = one?.wamid ?? ''
  const t = Math.floor(Date.now() / 1000)
  expect((await standIn.sendStatus({ wamid, status: 'read', timestamp: t + 20 })).status).toBe(200)
  expect((await standIn.sendStatus({ wamid, status: 'delivered', timestamp: t + 10 })).status).toBe(200)
  await standIn.sendStatus({ wamid, status: 'delivered', timestamp: t + 10 })
  const [read] = await db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, wamid))
  expect(read?.status).toBe('read')
  expect(read?.readAt?.getTime()).toBe((t + 20) * 1000)
  expect(read?.deliveredAt?.getTime()).toBe((t + 20) * 1000)

  // Undeliverable (131026) after Meta took it: failed, the e-mail once even if Meta repeats it.
  const other = two?.wamid ?? ''
  await standIn.sendStatus({ wamid: other, status: 'failed', errorCode: 131026 })
  await standIn.sendStatus({ wamid: other, status: 'failed', errorCode: 131026 })
  await standIn.sendStatus({ wamid: other, status: 'delivered' })
  const [failed] = await db.select().from(whatsappMessages).where(eq(whatsappMessages.wamid, other))
  expect(failed).toMatchObject({ status: 'failed', errorCode: 131026 })
  const emails = await queued('notification.email')
  expect(emails).toEqual([{ notificationId: two?.notificationId }])
})

test('the webhook refuses a forged or unsigned body, answers the subscription check, ignores junk', async () => {
  const { optIn, db } = await setup()
  await optIn(ana, ANA_PHONE)
  const stop = {
    object: 'whatsapp_business_account',
    entry: [
      {
        changes: [
          {
            value: {
              messages: [{ id: 'x', from: ANA_PHONE.slice(1), type: 'text', text: { body: 'STOP' } }],
            },
          },
        ],
      },
    ],
  }
  expect((await standIn.sendForged(stop)).status).toBe(401)
  const unsigned = await fetch(standIn.webhookUrl ?? '', { method: 'POST', body: JSON.stringify(stop) })
  expect(unsigned.status).toBe(401)
  const [contact] = await db.select().from(whatsappContacts).where(eq(whatsappContacts.userId, ana.id))
  expect(contact?.status).toBe('active')
  expect((await standIn.sendRaw('not json')).status).toBe(200)
  expect((await standIn.sendRaw(JSON.stringify({ object: 'page', entry: 'x' }))).status).toBe(200)

  const url = new URL(standIn.webhookUrl ?? '')
  url.search = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.verify_token': standIn.env.WHATSAPP_VERIFY_TOKEN ?? '',
    'hub.challenge': '1158201444',
  }).toString()
  const check = await fetch(url)
  expect(check.status).toBe(200)
  expect(await check.text()).toBe('1158201444')
  url.searchParams.set('hub.verify_token', 'wrong-token-wrong-token')
  expect((await fetch(url)).status).toBe(403)
})

test('nothing configured: no WhatsApp job, and a message queued before goes by e-mail', async () => {
  const { optIn, notify, queued, db, jobs } = await setup()
  await optIn(ana, ANA_PHONE)
  await notify(ana.id, 'quote_revised', { number: 'PR-1', invoice: 'I' })
  const [{ messageId }] = await queued('whatsapp.send')
  expect(await sendWhatsAppMessage({ db, jobs, client: null }, messageId, { lastAttempt: false })).toBe(
    'skipped',
  )
  expect(await queued('notification.email')).toHaveLength(1)
  // Bruno never opted in: the e-mail as always.
  await notify(bruno.id, 'quote_revised', { number: 'PR-2', invoice: 'J' })
  expect(await queued('notification.email')).toHaveLength(2)
  const rows = await db.select().from(notifications)
  expect(rows).toHaveLength(2)
})
