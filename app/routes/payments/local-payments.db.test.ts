import { afterAll, beforeAll, expect, test } from 'vitest'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { createTestDatabase } from '#tests/db.ts'
import { type DLocalStandIn, startDLocalStandIn } from '#tests/support/dlocal-stand-in/server.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { middleware as customerMiddleware } from '../customer/layout.tsx'
import { action as requestAction, loader as requestLoader } from '../customer/request.tsx'

// The customer's request page with dLocal configured (docs/decisions/051): the local methods
// follow the default address's country or the one chosen on the panel; paying by OXXO comes back
// to the page with the voucher; a method not offered in that country, or hostile input, is a
// translated 400 with nothing written; every role against the pay intent. Without dLocal the panel
// offers no local methods.

let standIn: DLocalStandIn
let db: Awaited<ReturnType<typeof createTestDatabase>>['db']
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool']
let withDLocal: Awaited<ReturnType<typeof createTestServices>>
let manualOnly: Awaited<ReturnType<typeof createTestServices>>

beforeAll(async () => {
  ;({ db, pool } = await createTestDatabase())
  standIn = await startDLocalStandIn()
  withDLocal = await createTestServices(db, pool, { payments: paymentProvidersFromEnv(standIn.env) })
  manualOnly = await createTestServices(db, pool)
})
afterAll(() => standIn.stop())

type Services = typeof withDLocal

const view = (services: Services, id: string, cookie?: string, search = '') =>
  callRoute(
    services,
    customerMiddleware,
    pageRequest(`/user-dashboard/requests/${id}${search}`, { cookie }),
    (args) => requestLoader(args as never),
    { params: { id }, context: { language: 'es' } },
  )
const post = (services: Services, id: string, fields: Record<string, string>, cookie?: string) =>
  callRoute(
    services,
    customerMiddleware,
    formPost(`/user-dashboard/requests/${id}`, fields, { cookie }),
    (args) => requestAction(args as never),
    { params: { id }, context: { language: 'es' } },
  )

type Panel = {
  local: { country: string | null; methods: string[]; countries: { code: string }[] } | null
  voucher: { method: string; reference: string; amountLabel: string | null; payByLabel: string | null } | null
  canPay: boolean
  providers: string[]
}
const panelOf = (answer: { data: unknown }) => (answer.data as { payment: Panel }).payment

async function addAddress(userId: string, country: string) {
  await pool.query(
    `INSERT INTO addresses (user_id, full_name, street, city, region, postal_code, country, phone, is_default)
     VALUES ($1, 'Ana López', 'Av. Reforma 1', 'Ciudad de México', 'CDMX', '06600', $2, '+52 55 1234 5678', true)`,
    [userId, country],
  )
}

async function paymentCount(invoiceId: string) {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM payments WHERE invoice_id = $1', [
    invoiceId,
  ])
  return rows[0]?.n as number
}

test('the methods follow the default address, or the country chosen on the panel; none without dLocal', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.mx@example.com' })
  await addAddress(ana.id, 'MX')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const page = await view(withDLocal, quoted.requestId, ana.cookie)
  expect(page.status).toBe(200)
  const panel = panelOf(page)
  expect(panel.providers).toEqual([])
  expect(panel.local).toMatchObject({ country: 'MX', methods: ['oxxo', 'spei', 'card'] })
  expect(panel.local?.countries.map((country) => country.code).sort()).toEqual(['BR', 'CL', 'CO', 'MX', 'PE'])
  expect(panelOf(await view(withDLocal, quoted.requestId, ana.cookie, '?payCountry=BR')).local).toMatchObject(
    {
      country: 'BR',
      methods: ['pix', 'card'],
    },
  )
  expect(
    panelOf(await view(withDLocal, quoted.requestId, ana.cookie, '?payCountry=PE')).local?.methods,
  ).toEqual(['pagoefectivo', 'card'])
  // A country we do not serve, or junk: the address's country stays.
  for (const junk of ['US', 'mx', '<script>', 'x'.repeat(3000)]) {
    expect(
      panelOf(await view(withDLocal, quoted.requestId, ana.cookie, `?payCountry=${encodeURIComponent(junk)}`))
        .local?.country,
    ).toBe('MX')
  }
  expect(panelOf(await view(manualOnly, quoted.requestId, ana.cookie)).local).toBeNull()

  const bruno = await signedInCaller(pool, { email: 'bruno.jp@example.com' })
  await addAddress(bruno.id, 'US')
  const his = await insertQuotedRequest(pool, { userId: bruno.id })
  expect(panelOf(await view(withDLocal, his.requestId, bruno.cookie)).local).toMatchObject({
    country: null,
    methods: [],
  })
})

test('paying by OXXO: back to the page with the voucher in pesos and its expiry; the pay buttons are gone', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.oxxo@example.com' })
  await addAddress(ana.id, 'MX')
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const fields = {
    intent: 'pay',
    invoiceId: quoted.invoiceId,
    provider: 'dlocal',
    country: 'MX',
    method: 'oxxo',
  }
  const paid = await post(withDLocal, quoted.requestId, fields, ana.cookie)
  expect(paid.status).toBe(302)
  expect(redirectOf(paid)).toEqual({
    location: `/user-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'voucherIssued' },
  })
  const panel = panelOf(await view(withDLocal, quoted.requestId, ana.cookie))
  expect(panel.voucher).toMatchObject({ method: 'OXXO', amountLabel: expect.stringContaining('869.50') })
  expect(panel.voucher?.reference).toMatch(/^\d{14}$/)
  expect(panel.voucher?.payByLabel).toBeTruthy()
  expect(panel.canPay).toBe(false)
  // What dLocal was asked for: this payment, in pesos, by OXXO.
  const { rows } = await pool.query('SELECT id FROM payments WHERE invoice_id = $1', [quoted.invoiceId])
  expect(standIn.paymentForOrder(rows[0]?.id)).toMatchObject({
    amount: 869.5,
    currency: 'MXN',
    payment_method_id: 'OX',
  })
  // Another click on OXXO: the same voucher, no second payment.
  expect((await post(withDLocal, quoted.requestId, fields, ana.cookie)).status).toBe(302)
  expect(await paymentCount(quoted.invoiceId)).toBe(1)
})

test('a method not offered in that country, or hostile input: a translated 400, nothing written', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.bad@example.com' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const base = { intent: 'pay', invoiceId: quoted.invoiceId, provider: 'dlocal' }
  const attempts: Record<string, string>[] = [
    { country: 'CL', method: 'oxxo' },
    { country: 'MX', method: 'pix' },
    { country: 'US', method: 'card' },
    { country: 'MX', method: '' },
    { country: '', method: 'oxxo' },
    {},
    { country: 'MX', method: '<img src=x onerror=alert(1)>' },
    { country: 'MX'.repeat(5000), method: 'oxxo' },
  ]
  for (const extra of attempts) {
    const answer = await post(withDLocal, quoted.requestId, { ...base, ...extra }, ana.cookie)
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ payment: { error: 'errors.reasons.paymentMethodNotOffered' } })
  }
  // dLocal not configured: the provider is unknown.
  const off = await post(manualOnly, quoted.requestId, { ...base, country: 'MX', method: 'oxxo' }, ana.cookie)
  expect(off.status).toBe(400)
  expect(off.data).toMatchObject({ payment: { error: 'errors.reasons.paymentProviderUnknown' } })
  expect(await paymentCount(quoted.invoiceId)).toBe(0)
})

test('the pay intent, role by role: anonymous 401, another customer 404, moderator and admin 403, the owner 302', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.roles.dl@example.com' })
  const bruno = await signedInCaller(pool, { email: 'bruno.roles.dl@example.com' })
  const moderator = await signedInCaller(pool, { email: 'mod.roles.dl@example.com', role: 'moderator' })
  const admin = await signedInCaller(pool, { email: 'admin.roles.dl@example.com', role: 'admin' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const fields = {
    intent: 'pay',
    invoiceId: quoted.invoiceId,
    provider: 'dlocal',
    country: 'MX',
    method: 'oxxo',
  }
  expect((await post(withDLocal, quoted.requestId, fields)).status).toBe(401)
  expect((await post(withDLocal, quoted.requestId, fields, bruno.cookie)).status).toBe(404)
  expect((await post(withDLocal, quoted.requestId, fields, moderator.cookie)).status).toBe(403)
  expect((await post(withDLocal, quoted.requestId, fields, admin.cookie)).status).toBe(403)
  expect(await paymentCount(quoted.invoiceId)).toBe(0)
  expect((await post(withDLocal, quoted.requestId, fields, ana.cookie)).status).toBe(302)
  expect(await paymentCount(quoted.invoiceId)).toBe(1)
})
