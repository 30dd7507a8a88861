import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { approveQuote, saveQuoteDraft } from '#core/orders/quote-service.ts'
import { submitRequest } from '#core/orders/request-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { invoices, purchaseRequests, requestItems, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'

// A settings save reaches the next quote at once, and never a quote already issued: an invoice
// keeps the fee, tax and exchange rates it was issued with.

const customer: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }

test('a quote issued before a settings change keeps its fee and tax; the next one uses the new ones', async () => {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  await db.insert(users).values([
    {
      id: customer.id,
      name: 'Ana',
      email: 'ana@example.com',
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
    },
    {
      id: admin.id,
      name: 'Admin',
      email: 'admin@example.com',
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
      role: 'admin',
    },
  ])
  const version = async (id: string) =>
    (
      await db
        .select({ v: purchaseRequests.version })
        .from(purchaseRequests)
        .where(eq(purchaseRequests.id, id))
    )[0]?.v ?? -1
  /** A one-item request, priced at ¥2,000 and approved: its invoice. */
  const issueQuote = async () => {
    const { id } = await submitRequest(
      orders.as(customer),
      { items: [{ url: 'https://jp.mercari.com/item/m1', quantity: 1 }] },
      { locale: 'es' },
    )
    const [item] = await db
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(eq(requestItems.requestId, id))
    await saveQuoteDraft(orders.as(admin), {
      id,
      version: await version(id),
      items: [{ id: item?.id ?? '', title: 'Figure', unitPrice: '2000', domesticShipping: '' }],
    })
    await approveQuote(orders.as(admin), { id, version: await version(id) })
    const [invoice] = await db.select().from(invoices).where(eq(invoices.requestId, id))
    if (!invoice) throw new Error('no invoice issued')
    return invoice
  }

  const before = await issueQuote()
  expect(before).toMatchObject({ serviceFeeUnitJpy: 500, taxRateBasisPoints: 1000, serviceFeeJpy: 500 })

  const shown = await orders.settings.snapshot(admin)
  await orders.settings.save(
    { db, actor: admin },
    {
      values: {
        ...shown.values,
        serviceFeeJpy: 800,
        taxRate: 0.08,
        yenRates: { USD: 0.007, MXN: 0.12, CLP: 6.6 },
      },
      version: shown.version,
    },
  )

  const [kept] = await db.select().from(invoices).where(eq(invoices.id, before.id))
  expect(kept).toEqual(before)
  const after = await issueQuote()
  expect(after).toMatchObject({
    serviceFeeUnitJpy: 800,
    taxRateBasisPoints: 800,
    serviceFeeJpy: 800,
    yenRates: { USD: 0.007, MXN: 0.12, CLP: 6.6 },
  })
})
