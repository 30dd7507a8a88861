import { expect, test } from 'vitest'
import { createAddress } from '#core/customers/profile-service.ts'
import { importEstimateFor } from '#core/landed-cost/landed-cost.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { SEED_IMPORT_RULES } from '#core/seed/data/import-rules.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import * as staffInvoice from '../admin/invoice.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import * as invoicePage from './invoice.tsx'
import { middleware as customerMiddleware } from './layout.tsx'
import * as requestPage from './request.tsx'
import * as shipping from './shipping.tsx'

// Where a signed-in customer meets the import estimate (issue 30): the quote on the request page,
// the shipping tab (only the methods the address's country can use; the estimate with the rule's
// warnings), the shipping receipt that freezes its estimate. Seeded rules, as installed.

const ADDRESSES = {
  CL: {
    fullName: 'Ana Pérez',
    street: 'Av. Providencia 1234',
    city: 'Santiago',
    region: 'RM',
    postalCode: '7500000',
    country: 'CL',
    phone: '+56 2 2345 6789',
  },
  US: {
    fullName: 'Ana Pérez',
    street: '350 Fifth Avenue',
    city: 'New York',
    region: 'NY',
    postalCode: '10118',
    country: 'US',
    phone: '+1 212 736 3100',
  },
} as const

async function setup({ country, paid = true }: { country: 'CL' | 'US'; paid?: boolean }) {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const owner = await signedInCaller(pool, { email: 'ana@example.com' })
  const moderator = await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' })
  const admin = await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' })
  const as = (person: { id: string }, role: 'user' | 'admin' | 'moderator' = 'user') => ({
    db,
    actor: { id: person.id, role },
    ...services.orders,
  })
  // Two units at ¥2,500: ¥5,000 of goods (the service fee and the shipping in Japan are not goods).
  const quoted = await insertQuotedRequest(pool, { userId: owner.id })
  const address = await createAddress(as(owner), { ...ADDRESSES[country], makeDefault: true })
  const item = quoted.itemIds[0] as string
  if (paid) {
    await recordManualPayment(as(admin, 'admin'), {
      invoiceId: quoted.invoiceId,
      version: 0,
      amountJpy: String(quoted.totalJpy),
      reference: 'BANK 1',
    })
    const version = (
      await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [quoted.requestId])
    ).rows[0].version
    await bookArrival(as(moderator, 'moderator'), {
      id: quoted.requestId,
      version,
      items: [{ id: item, received: 'on', weight: '600' }],
      shelf: 'C-4',
    })
  }
  const customer = (
    request: Request,
    handler: (args: never) => unknown,
    params: Record<string, string> = {},
    language: 'es' | 'en' = 'en',
  ) =>
    callRoute(services, customerMiddleware, request, (args) => handler(args as never), {
      params,
      context: { language },
    })
  const post = (fields: Record<string, string>) =>
    customer(formPost('/user-dashboard/shipping', fields, { cookie: owner.cookie }), shipping.action)
  const count = async () => (await pool.query('SELECT count(*)::int AS n FROM shipments')).rows[0].n as number
  return {
    db,
    pool,
    services,
    owner,
    moderator,
    admin,
    as,
    quoted,
    item,
    addressId: address.id,
    customer,
    post,
    count,
  }
}

test('a US address is offered express only, with why; a request for economy is refused, nothing written; express is accepted', async () => {
  const { owner, item, addressId, customer, post, count } = await setup({ country: 'US' })
  const tab = await customer(
    pageRequest('/user-dashboard/shipping', { cookie: owner.cookie }),
    shipping.loader,
  )
  expect(tab.status).toBe(200)
  const methods = (tab.data as { addresses: { id: string; methods: unknown[] }[] }).addresses[0]?.methods
  expect(methods).toEqual([
    { method: 'economic', available: false, note: expect.stringContaining('Japan Post') },
    { method: 'express', available: true, note: null },
  ])

  for (const intent of ['estimate', 'request']) {
    const refused = await post({ intent, items: item, addressId, method: 'economic' })
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ messageKey: 'errors.reasons.methodUnavailable', estimate: null })
  }
  expect(await count()).toBe(0)

  const estimate = await post({ intent: 'estimate', items: item, addressId, method: 'express' })
  expect(estimate.status).toBe(200)
  // The USA: no duty-free amount; the item's own tariff is said, not guessed.
  expect(estimate.data).toMatchObject({
    estimate: { ok: true, landed: { frozen: { country: 'US', estimate: { kind: 'estimate' } } } },
  })
  const asked = await post({ intent: 'request', items: item, addressId, method: 'express' })
  expect(asked.status).toBe(302)
  expect(await count()).toBe(1)
})

test('the request page of a Chilean customer shows the quote’s import estimate: 19 % IVA on the goods, shipping not counted', async () => {
  const { owner, quoted, customer } = await setup({ country: 'CL', paid: false })
  const page = await customer(
    pageRequest(`/user-dashboard/requests/${quoted.requestId}`, { cookie: owner.cookie }),
    requestPage.loader,
    { id: quoted.requestId },
  )
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    landed: {
      kind: 'estimate',
      countryLabel: 'Chile',
      paidJpy: quoted.totalJpy,
      frozen: {
        country: 'CL',
        estimate: {
          kind: 'estimate',
          customsValueJpy: 5000,
          shippingCounted: false,
          dutyJpy: 0,
          vatBp: 1900,
          vatJpy: 950,
          importJpy: 950,
          collectedBy: 'customs',
          taxName: 'IVA',
        },
      },
    },
  })
})

test('the shipping receipt freezes its estimate: a rule added later changes the next estimate, never the receipt', async () => {
  const { pool, services, owner, moderator, admin, as, item, addressId, customer, post } = await setup({
    country: 'CL',
  })
  const estimate = await post({ intent: 'estimate', items: item, addressId, method: 'economic' })
  expect(estimate.data).toMatchObject({
    estimate: { ok: true, landed: { frozen: { country: 'CL', estimate: { vatBp: 1900 } }, warnings: [] } },
  })
  const asked = await post({ intent: 'request', items: item, addressId, method: 'economic' })
  expect(asked.status).toBe(302)
  const shipmentId = (await pool.query('SELECT id FROM shipments')).rows[0].id as string
  const { tables } = await services.shippingRates.get()
  const packed = await packShipment(
    as(moderator, 'moderator'),
    { id: shipmentId, version: 0, weight: '800' },
    tables,
  )

  const read = () =>
    customer(
      pageRequest(`/user-dashboard/invoices/${packed.invoiceId}`, { cookie: owner.cookie }),
      invoicePage.loader,
      { id: packed.invoiceId },
    )
  const before = await read()
  expect(before.status).toBe(200)
  const frozen = (before.data as { importEstimate: { frozen: { estimate: Record<string, unknown> } } })
    .importEstimate.frozen
  const shippingJpy = (
    await pool.query('SELECT shipping_jpy FROM invoices WHERE id = $1', [packed.invoiceId])
  ).rows[0].shipping_jpy
  // Chile counts the shipping in the customs value once it is known: goods ¥5,000 + the box.
  const customsValueJpy = 5000 + Number(shippingJpy)
  expect(frozen).toMatchObject({
    estimate: {
      kind: 'estimate',
      shippingCounted: true,
      customsValueJpy,
      vatBp: 1900,
      vatJpy: Math.floor((customsValueJpy * 1900) / 10_000 + 0.5),
    },
  })
  expect(before.data).toMatchObject({ importEstimate: { countryLabel: 'Chile' } })

  // The customer's e-mail (and notification) carry the estimate's amount.
  const notified = await pool.query(
    `SELECT params FROM notifications WHERE type = 'shipment_packed' AND user_id = $1`,
    [owner.id],
  )
  expect(notified.rows[0]?.params).toMatchObject({
    importJpy: frozen.estimate.importJpy,
    importCountry: 'CL',
    importCollector: 'customs',
  })

  // An admin adds a version of Chile's rule from today: 25 % IVA.
  const chile = SEED_IMPORT_RULES.find((seed) => seed.country === 'CL')
  if (!chile) throw new Error('Chile is seeded')
  const today = new Date().toISOString().slice(0, 10)
  const changed = {
    ...chile.rule,
    bands: chile.rule.bands.map((band) => ({ ...band, vatBp: 2500 })),
  }
  await services.importRules.addVersion(
    { db: services.db, actor: { id: admin.id, role: 'admin' } },
    { country: 'CL', effectiveFrom: today, rule: changed },
  )

  const after = await read()
  expect((after.data as { importEstimate: unknown }).importEstimate).toEqual(
    (before.data as { importEstimate: unknown }).importEstimate,
  )
  // Staff read the same frozen figures.
  const staffPage = await callRoute(
    services,
    staffMiddleware,
    pageRequest(`/admin-dashboard/invoices/${packed.invoiceId}`, { cookie: moderator.cookie }),
    (args) => staffInvoice.loader(args as never),
    { params: { id: packed.invoiceId }, context: { language: 'en' } },
  )
  expect(staffPage.data).toMatchObject({ importEstimate: { frozen: { estimate: { vatBp: 1900 } } } })

  // A fresh estimate reads the new version.
  const fresh = importEstimateFor(await services.importRules.inEffect(), 'CL', {
    goodsJpy: 5000,
    shippingJpy: Number(shippingJpy),
    categories: 1,
    rates: (frozen as unknown as { rates: { USD: number; EUR: number } }).rates ?? {
      USD: 0.0068,
      EUR: 0.0058,
    },
  })
  expect(fresh.estimate).toMatchObject({ kind: 'estimate', vatBp: 2500 })
  expect(fresh.ruleId).not.toBe(
    (before.data as { importEstimate: { frozen: { ruleId: string } } }).importEstimate.frozen.ruleId,
  )
})
