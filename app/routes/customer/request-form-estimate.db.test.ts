import { expect, test } from 'vitest'
import { createAddress } from '#core/customers/profile-service.ts'
import { importEstimateFor } from '#core/landed-cost/landed-cost.ts'
import { createTestDatabase } from '#tests/db.ts'
import { callRoute, createTestServices, pageRequest, signedInCaller } from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import { loader as dashboardLoader } from './dashboard.tsx'
import { middleware as customerMiddleware } from './layout.tsx'

// The request form's estimate (issue 31): with a home address, the page brings that country's
// import rule in effect, and the browser estimates each item's taxes at the door from it; without
// an address, or for a country without rules, nothing is brought and no such line shows.
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
  AU: {
    fullName: 'Ana Pérez',
    street: '1 Martin Place',
    city: 'Sydney',
    region: 'NSW',
    postalCode: '2000',
    country: 'AU',
    phone: '+61 2 9374 4000',
  },
} as const

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const ana = await signedInCaller(pool, { email: 'ana@example.com' })
  const view = async () =>
    (
      await callRoute(
        services,
        customerMiddleware,
        pageRequest('/user-dashboard', { cookie: ana.cookie }),
        (args) => dashboardLoader(args as never),
      )
    ).data as { landed: unknown }
  const home = (country: 'CL' | 'AU') =>
    createAddress(
      { db, actor: { id: ana.id, role: 'user' }, ...services.orders },
      { ...ADDRESSES[country], makeDefault: true },
    )
  return { view, home }
}

test('no address: no import rule is brought; a Chilean home: Chile’s rule, one country only', async () => {
  const { view, home } = await setup()
  expect((await view()).landed).toBeNull()
  await home('CL')
  const { landed } = (await view()) as {
    landed: { country: string; countryLabel: string; rules: { rules: Record<string, unknown> }; rates: never }
  }
  expect(landed.country).toBe('CL')
  expect(Object.keys(landed.rules.rules)).toEqual(['CL'])
  // What the browser computes from it: Chile's VAT from the first dollar on ¥10,000 of goods.
  const estimate = importEstimateFor(landed.rules as never, 'CL', {
    goodsJpy: 10_000,
    shippingJpy: null,
    categories: 1,
    rates: landed.rates,
  }).estimate
  expect(estimate.kind).toBe('estimate')
  if (estimate.kind === 'estimate') expect(estimate.importJpy).toBeGreaterThan(0)
})

test('a home country without import rules brings nothing', async () => {
  const { view, home } = await setup()
  await home('AU')
  expect((await view()).landed).toBeNull()
})
