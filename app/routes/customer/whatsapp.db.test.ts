import { afterAll, beforeAll, expect, test } from 'vitest'
import { createWhatsAppClient } from '#core/whatsapp/client.ts'
import { whatsappConfigFromEnv } from '#core/whatsapp/config.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/support/whatsapp-stand-in/server.ts'
import { middleware } from './layout.tsx'
import { loader as notificationsLoader } from './notifications.tsx'
import { action, loader } from './whatsapp.tsx'

// The WhatsApp page called through the customer area's middleware, against the Cloud API
// stand-in: who may use it (each signed-in person for their own number only), bad input (400 with
// the field's message, nothing written), and nothing at all when WhatsApp is not configured.

let standIn: WhatsAppStandIn
beforeAll(async () => {
  standIn = await startWhatsAppStandIn()
})
afterAll(() => standIn.close())

const PATH = '/user-dashboard/notifications/whatsapp'
type Handler = (args: never) => unknown

async function setup({ configured = true } = {}) {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const config = whatsappConfigFromEnv(standIn.env)
  const whatsapp = configured && config ? createWhatsAppClient(config) : null
  const context = { language: 'en' as const, whatsapp }
  const get = (handler: Handler, cookie?: string, path = PATH) =>
    callRoute(services, middleware, pageRequest(path, { cookie }), (args) => handler(args as never), {
      context,
    })
  const post = (fields: Record<string, string> | FormData, cookie?: string) =>
    callRoute(services, middleware, formPost(PATH, fields, { cookie }), (args) => action(args as never), {
      context,
    })
  const contactOf = async (userId: string) =>
    ((await pool.query('select status, categories from whatsapp_contacts where user_id = $1', [userId]))
      .rows[0] as { status: string; categories: string[] } | undefined) ?? null
  return {
    db,
    pool,
    get,
    post,
    contactOf,
    signedIn: (email: string, role?: 'user' | 'admin' | 'moderator') => signedInCaller(pool, { email, role }),
  }
}

test('anonymous visitors are refused (401) and change nothing', async () => {
  const { get, post, pool } = await setup()
  const page = await get(loader)
  expect(page.status).toBe(401)
  const posted = await post({ intent: 'start', phone: '+5215512345678' })
  expect(posted.status).toBe(401)
  expect((await pool.query('select 1 from whatsapp_contacts')).rowCount).toBe(0)
})

test('a customer opts in, chooses updates and stops; another customer sees none of it', async () => {
  const { get, post, signedIn, contactOf } = await setup()
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com')
  expect((await get(loader, ana.cookie)).data).toMatchObject({ state: null })

  const started = await post({ intent: 'start', phone: '+52 55 1234 5678' }, ana.cookie)
  expect(started.status).toBe(302)
  expect(redirectOf(started)).toMatchObject({ location: PATH, notice: { name: 'whatsappCodeSent' } })
  const code = standIn.lastCode('+525512345678') ?? ''
  expect(standIn.sent.at(-1)).toMatchObject({ template: 'account_verification_code', language: 'en' })

  // Bruno's page knows nothing of Ana's number, and her code does nothing for him.
  expect((await get(loader, bruno.cookie)).data).toMatchObject({ state: null })
  const stolen = await post({ intent: 'confirm', code }, bruno.cookie)
  expect(stolen.status).toBe(400)
  expect(await contactOf(bruno.id)).toBeNull()
  expect((await contactOf(ana.id))?.status).toBe('pending')

  const confirmed = await post({ intent: 'confirm', code }, ana.cookie)
  expect(redirectOf(confirmed)).toMatchObject({ location: PATH, notice: { name: 'whatsappOn' } })
  const form = new FormData()
  form.set('intent', 'preferences')
  form.append('categories', 'quote')
  form.append('categories', 'shipped')
  expect((await post(form, ana.cookie)).status).toBe(302)
  expect((await contactOf(ana.id))?.categories).toEqual(['quote', 'shipped'])
  expect((await get(loader, ana.cookie)).data).toMatchObject({
    state: { status: 'active', phone: '+525512345678', categories: ['quote', 'shipped'] },
  })

  // Bruno stopping stops only his own (he has none).
  expect((await post({ intent: 'stop' }, bruno.cookie)).status).toBe(302)
  expect((await contactOf(ana.id))?.status).toBe('active')
  const stopped = await post({ intent: 'stop' }, ana.cookie)
  expect(redirectOf(stopped)).toMatchObject({ notice: { name: 'whatsappStopped' } })
  expect((await contactOf(ana.id))?.status).toBe('stopped')
})

test('staff use it for their own number like any customer', async () => {
  const { post, signedIn, contactOf } = await setup()
  for (const role of ['moderator', 'admin'] as const) {
    const staff = await signedIn(`${role}@example.com`, role)
    expect((await post({ intent: 'start', phone: '+14155550100' }, staff.cookie)).status).toBe(302)
    expect((await contactOf(staff.id))?.status).toBe('pending')
  }
})

test('bad input: 400 with the field’s message, nothing written', async () => {
  const { post, signedIn, contactOf } = await setup()
  const ana = await signedIn('ana@example.com')
  const cases: [Record<string, string>, string][] = [
    [{ intent: 'start', phone: '' }, 'phoneRequired'],
    [{ intent: 'start', phone: '5512345678' }, 'phoneInvalid'],
    [{ intent: 'start', phone: `+52${'1'.repeat(60)}` }, 'phoneInvalid'],
    [{ intent: 'start', phone: '+52<script>alert(1)</script>' }, 'phoneInvalid'],
    [{ intent: 'start', phone: "+52'; drop table users; --" }, 'phoneInvalid'],
  ]
  for (const [fields, reason] of cases) {
    const answer = await post(fields, ana.cookie)
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ form: 'start', reason })
  }
  expect(await contactOf(ana.id)).toBeNull()
  // No code pending; a code that is not 6 digits; preferences before a confirmed number.
  expect((await post({ intent: 'confirm', code: '123456' }, ana.cookie)).data).toMatchObject({
    reason: 'codeExpired',
  })
  expect((await post({ intent: 'confirm', code: 'x'.repeat(5000) }, ana.cookie)).data).toMatchObject({
    reason: 'codeInvalid',
  })
  expect((await post({ intent: 'preferences', categories: 'quote' }, ana.cookie)).status).toBe(409)
  expect((await post({ intent: 'unknown' }, ana.cookie)).status).toBe(400)
  // A number WhatsApp does not reach.
  standIn.undeliverable.add('+5491100000000')
  const unreachable = await post({ intent: 'start', phone: '+5491100000000' }, ana.cookie)
  expect(unreachable.status).toBe(400)
  expect(unreachable.data).toMatchObject({ reason: 'notOnWhatsApp' })
  // Meta down: 502 with its message.
  standIn.failNext(1)
  const down = await post({ intent: 'start', phone: '+5491100000001' }, ana.cookie)
  expect(down.status).toBe(502)
  expect(down.data).toMatchObject({ reason: 'whatsappDown' })
  // Those were the first two codes of the hour (each asked counts); the third goes, the fourth
  // waits (429 with Retry-After).
  expect((await post({ intent: 'start', phone: '+5491100000002' }, ana.cookie)).status).toBe(302)
  const limited = await post({ intent: 'start', phone: '+5491100000002' }, ana.cookie)
  expect(limited.status).toBe(429)
  expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
})

test('not configured: the page is a 404, the notifications page shows no link', async () => {
  const { get, post, signedIn, contactOf } = await setup({ configured: false })
  const ana = await signedIn('ana@example.com')
  expect((await get(loader, ana.cookie)).status).toBe(404)
  expect((await post({ intent: 'start', phone: '+5215512345678' }, ana.cookie)).status).toBe(404)
  expect(await contactOf(ana.id)).toBeNull()
  const list = await get(notificationsLoader, ana.cookie, '/user-dashboard/notifications')
  expect(list.data).toMatchObject({ whatsapp: false })
})
