// Seeds the look-server's database (not committed): items past their free storage, shipments in
// every state this issue touches. Run with the project's node.
import fs from 'node:fs'
import path from 'node:path'
import { createJobQueue } from '#core/jobs/job-queue.ts'
import { JOBS } from '#core/jobs/registry.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import { createAddress } from '#core/customers/profile-service.ts'
import { createDiskFileStore } from '#core/uploads/file-store.ts'
import { requestShipment } from '#core/shipping/shipment-service.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { reissueShippingReceipt } from '#core/shipping/receipt-reissue.ts'
import { cancelShipment } from '#core/shipping/shipment-service.ts'
import { createDb } from '#db/client.ts'
import { runningEmbeddedUrl } from '#server/embedded-postgres.ts'
import { bookedItems } from '#tests/support/warehouse-fixtures.ts'
import { insertSession, signedSessionCookie } from '#tests/support/accounts.ts'

const dataDir = process.argv[2] ?? '/tmp/d-data'
const { db, pool } = createDb(runningEmbeddedUrl(dataDir))
const jobs = createJobQueue({
  pool,
  jobs: JOBS,
  handlers: (await import('#tests/support/jobs.ts')).idleJobHandlers(),
  logger: { info: () => {}, warn: () => {}, error: () => {} },
  schedules: false,
  work: false,
})
await jobs.start()
const settings = createSettingsService({ db })
const deps = { jobs, settings, payments: [], appUrl: 'http://localhost:4720', files: createDiskFileStore(path.join(dataDir, 'uploads')) }
const as = (actor: { id: string; role: 'user' | 'admin' | 'moderator' }) => ({ db, actor, ...deps })
const orders = { as }
const { rows: people } = await pool.query(`SELECT id, email, role FROM users`)
const customer = people.find((p) => p.email === 'demo-customer@example.com')
const admin = people.find((p) => p.email === 'demo-admin@example.com')
const c = { id: customer.id, role: 'user' as const }
const a = { id: admin.id, role: 'admin' as const }
const titles = ['Figura Miku 20 cm', 'Libro de arte Ghibli', 'Peluche Pikachu', 'Taza Totoro', 'Manga One Piece 1-5', 'Llavero Sailor Moon']
const items: string[] = []
for (const [index, title] of titles.entries()) {
  const booked = await bookedItems(orders, pool, { userId: c.id, staff: a, weight: String(300 + index * 100), items: [{ unitPriceJpy: 1500 + index * 500 }] })
  await pool.query('UPDATE request_items SET title = $2 WHERE id = $1', [booked.itemIds[0], title])
  items.push(booked.itemIds[0] as string)
}
const days = [40, 33, 12, 45, 38, 41]
for (const [index, id] of items.entries()) {
  await pool.query(`UPDATE request_items SET received_at = now() - $2::int * interval '1 day' WHERE id = $1`, [id, days[index]])
}
const address = await createAddress(as(c), {
  fullName: 'Camila Rojas', street: 'Av. Providencia 1234', city: 'Santiago', region: 'RM', postalCode: '7500000', country: 'CL', phone: '+56 9 1234 5678', makeDefault: true,
})
const { createShippingRatesService } = await import('#core/pricing/shipping-rates-service.ts')
const rates = (await createShippingRatesService({ db }).get()).tables
// Shipment 1: requested (items 3 and 4).
const s1 = await requestShipment(as(c), { items: [items[3], items[4]], addressId: address.id, method: 'economic' }, rates, { locale: 'es' })
// Shipment 2: packed at another price, paid, then re-issued lower: a credit note.
const s2 = await requestShipment(as(c), { items: [items[5]], addressId: address.id, method: 'express' }, rates, { locale: 'es' })
const p2 = await packShipment(as(a), { id: s2.id, version: 0, weight: '1500', price: '9000', reason: 'Caja reforzada', confirm: 'yes' }, rates)
await recordManualPayment(as(a), { invoiceId: p2.invoiceId, version: 0, amountJpy: String(p2.totalJpy), reference: 'BANK-SH2' })
await reissueShippingReceipt(as(a), { id: s2.id, version: p2.version + 1, price: '7400', reason: 'Cobramos la tarifa de una caja más grande por error.', confirm: 'yes' })
// Shipment 3: items 0 → requested then cancelled by staff with a reason.
const s3 = await requestShipment(as(c), { items: [items[0]], addressId: address.id, method: 'economic' }, rates, { locale: 'es' })
await cancelShipment(as(a), { id: s3.id, version: 0, reason: 'La dirección no tiene número de calle: agrégalo y vuelve a pedirlo.', confirm: 'yes' })
const secret = fs.readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim()
const cookies = {
  customer: signedSessionCookie(await insertSession(pool, c.id), secret),
  admin: signedSessionCookie(await insertSession(pool, a.id), secret),
}
fs.writeFileSync('/tmp/d/look.json', JSON.stringify({ s1: s1.id, s2: s2.id, s3: s3.id, cookies }, null, 2))
await jobs.stop({ timeoutMs: 1000 })
await pool.end()
console.log('seeded', s1.number, s2.number, s3.number)
