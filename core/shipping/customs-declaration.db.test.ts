import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { exportAccountData } from '#core/accounts/data-export.ts'
import { customsDeclarationLines, customsDeclarations, orderEvents } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, bruno, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'
import {
  DECLARATION_ENTITY,
  editDeclaration,
  getDeclaration,
  getPrintableDeclaration,
  reviewDeclaration,
} from './customs-declaration.ts'
import { packShipment } from './shipment-packing.ts'

// The customs declaration (issue 30): built from what Ana paid for her two items (¥3,000 and
// ¥5,000, 400 g and 700 g), reviewed by her, HS codes by staff, locked once packed; every
// refusal writes nothing.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const { shipment, first, second } = await requestedShipment(db, pool, orders)
  const itemIds = [first.itemIds[0] ?? '', second.itemIds[0] ?? '']
  const snapshot = async () => ({
    declarations: (await db.select().from(customsDeclarations)).map((row) => [row.version, row.confirmedBy]),
    lines: (await db.select().from(customsDeclarationLines)).map((row) => [row.description, row.hsCode]),
    events: (await db.select().from(orderEvents).where(eq(orderEvents.entityType, DECLARATION_ENTITY)))
      .length,
  })
  return { db, orders, shipment, itemIds, snapshot }
}

test('the declaration starts from the paid prices and the warehouse weights; the customer describes and confirms it', async () => {
  const { db, orders, shipment, itemIds, snapshot } = await setup()
  const draft = await getDeclaration(orders.as(ana), shipment.id)
  expect(draft).toMatchObject({ number: shipment.number, locked: false, version: null, confirmedAt: null })
  expect(draft.lines.map((line) => [line.itemId, line.quantity, line.valueJpy, line.netWeightG])).toEqual([
    [itemIds[0], 1, 3000, 400],
    [itemIds[1], 1, 5000, 700],
  ])
  // The fixtures' titles ("Item 1") are too vague for customs: left for the customer to write.
  expect(draft.lines.map((line) => [line.description, line.originCountry])).toEqual([
    [null, 'JP'],
    [null, 'JP'],
  ])
  expect(draft.totals).toMatchObject({
    valueJpy: 8000,
    netWeightG: 1100,
    form: 'CN22',
    missingDescriptions: 2,
  })
  // Reading writes nothing.
  expect((await snapshot()).declarations).toEqual([])

  // Confirming with a line undescribed is refused, on that line.
  expect(
    await refusal(
      reviewDeclaration(orders.as(ana), {
        id: shipment.id,
        version: '',
        lines: [
          { itemId: itemIds[0], description: 'Anime figure, PVC' },
          { itemId: itemIds[1], description: '' },
        ],
        confirm: true,
      }),
    ),
  ).toMatchObject({ code: 'invalid', fields: { 'lines[1].description': ['descriptionRequired'] } })
  expect((await snapshot()).declarations).toEqual([])

  const saved = await reviewDeclaration(orders.as(ana), {
    id: shipment.id,
    version: '',
    lines: [
      { itemId: itemIds[0], description: 'Anime figure, PVC' },
      { itemId: itemIds[1], description: 'Plush toy, polyester' },
    ],
    confirm: true,
  })
  expect(saved.version).toBe(0)
  const confirmed = await getDeclaration(orders.as(ana), shipment.id)
  expect(confirmed.confirmedAt).toBeInstanceOf(Date)
  expect(confirmed.totals.missingDescriptions).toBe(0)
  expect(confirmed.lines.map((line) => [line.description, line.valueJpy])).toEqual([
    ['Anime figure, PVC', 3000],
    ['Plush toy, polyester', 5000],
  ])
  const [event] = await db.select().from(orderEvents).where(eq(orderEvents.entityType, DECLARATION_ENTITY))
  expect(event).toMatchObject({
    entityId: shipment.id,
    event: 'declaration_confirmed',
    actorKind: 'customer',
    actorId: ana.id,
  })

  // Staff add an HS code: the customer's confirmation stays; a changed description clears it.
  const coded = await editDeclaration(orders.as(moderator), {
    id: shipment.id,
    version: '0',
    lines: [
      { itemId: itemIds[0], description: 'Anime figure, PVC', hsCode: '9503.00' },
      { itemId: itemIds[1], description: 'Plush toy, polyester', hsCode: '' },
    ],
  })
  expect(coded.version).toBe(1)
  const withCode = await getDeclaration(orders.as(ana), shipment.id)
  expect(withCode.confirmedAt).not.toBeNull()
  expect(withCode.lines.map((line) => line.hsCode)).toEqual(['950300', null])
  await editDeclaration(orders.as(admin), {
    id: shipment.id,
    version: '1',
    lines: [
      { itemId: itemIds[0], description: 'Anime figure, PVC, boxed', hsCode: '9503.00' },
      { itemId: itemIds[1], description: 'Plush toy, polyester', hsCode: '' },
    ],
  })
  const edited = await getDeclaration(orders.as(ana), shipment.id)
  expect(edited).toMatchObject({ version: 2, confirmedAt: null })
  // The customer's save keeps staff's HS codes.
  await reviewDeclaration(orders.as(ana), {
    id: shipment.id,
    version: '2',
    lines: [
      { itemId: itemIds[0], description: 'Anime figure, PVC, boxed' },
      { itemId: itemIds[1], description: 'Plush toy, polyester' },
    ],
    confirm: true,
  })
  expect((await getDeclaration(orders.as(ana), shipment.id)).lines.map((line) => line.hsCode)).toEqual([
    '950300',
    null,
  ])
  // "Download my data" carries the declaration as customs were told it; Bruno's has none of it.
  const exported = await exportAccountData(db, ana.id)
  expect(exported?.shipments[0]?.customsDeclaration).toEqual({
    confirmedAt: expect.any(Date),
    lines: [
      {
        description: 'Anime figure, PVC, boxed',
        quantity: 1,
        valueJpy: 3000,
        netWeightG: 400,
        hsCode: '950300',
        originCountry: 'JP',
      },
      {
        description: 'Plush toy, polyester',
        quantity: 1,
        valueJpy: 5000,
        netWeightG: 700,
        hsCode: null,
        originCountry: 'JP',
      },
    ],
  })
  expect((await exportAccountData(db, bruno.id))?.shipments).toEqual([])
})

test('who may see and change it: its customer and staff; anyone else sees no shipment', async () => {
  const { orders, shipment, itemIds, snapshot } = await setup()
  const lines = [
    { itemId: itemIds[0], description: 'Anime figure' },
    { itemId: itemIds[1], description: 'Plush toy' },
  ]
  const input = { id: shipment.id, version: '', lines }
  const before = await snapshot()
  expect(await refusal(getDeclaration(orders.as(null), shipment.id))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(getDeclaration(orders.as(bruno), shipment.id))).toMatchObject({ code: 'not_found' })
  expect(await refusal(reviewDeclaration(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(reviewDeclaration(orders.as(bruno), input))).toMatchObject({ code: 'not_found' })
  // Staff change it on their page, not as the customer.
  expect(await refusal(reviewDeclaration(orders.as(admin), input))).toMatchObject({ code: 'not_found' })
  const staffInput = { ...input, lines: lines.map((line) => ({ ...line, hsCode: '' })) }
  expect(await refusal(editDeclaration(orders.as(null), staffInput))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(editDeclaration(orders.as(ana), staffInput))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(editDeclaration(orders.as(bruno), staffInput))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(getPrintableDeclaration(orders.as(ana), shipment.id))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(getPrintableDeclaration(orders.as(null), shipment.id))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(getDeclaration(orders.as(ana), 'not-a-uuid'))).toMatchObject({ code: 'not_found' })
  expect(await snapshot()).toEqual(before)

  expect((await getDeclaration(orders.as(moderator), shipment.id)).number).toBe(shipment.number)
  const printable = await getPrintableDeclaration(orders.as(moderator), shipment.id)
  expect(printable).toMatchObject({
    method: 'economic',
    address: { fullName: 'Ana Pérez', city: 'Lima', country: 'PE' },
    sender: { name: 'Demo Proxy Shopping Japan' },
    totals: { valueJpy: 8000, form: 'CN22' },
  })
  expect((await getPrintableDeclaration(orders.as(admin), shipment.id)).lines).toHaveLength(2)
})

test('bad input is refused with its message on its field and writes nothing', async () => {
  const { orders, shipment, itemIds, snapshot } = await setup()
  const before = await snapshot()
  const cases: [unknown, Record<string, string[]>][] = [
    [
      {
        id: shipment.id,
        version: '',
        lines: [
          { itemId: itemIds[0], description: '<img src=x onerror=alert(1)>' },
          { itemId: itemIds[1], description: 'x'.repeat(121) },
        ],
      },
      { 'lines[0].description': ['descriptionLetters'], 'lines[1].description': ['descriptionTooLong'] },
    ],
    [
      {
        id: shipment.id,
        version: '',
        lines: [
          { itemId: itemIds[0], description: 'Gift' },
          { itemId: itemIds[1], description: 'フィギュア' },
        ],
      },
      { 'lines[0].description': ['descriptionVague'], 'lines[1].description': ['descriptionLetters'] },
    ],
    [{ id: shipment.id, version: '', lines: [{ itemId: itemIds[0], description: ['a'] }] }, {}],
    [{ id: shipment.id, version: 'x', lines: 'nope' }, {}],
  ]
  for (const [input, fields] of cases) {
    const refused = await refusal(reviewDeclaration(orders.as(ana), input))
    expect(refused).toMatchObject({ code: 'invalid', reason: 'shipmentInvalid' })
    if (Object.keys(fields).length > 0) expect(refused.fields).toEqual(fields)
  }
  // A line for an item not in the shipment, or one left out: the page is stale.
  expect(
    await refusal(
      reviewDeclaration(orders.as(ana), {
        id: shipment.id,
        version: '',
        lines: [{ itemId: itemIds[0], description: 'Anime figure' }],
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentChanged' })
  expect(
    await refusal(
      editDeclaration(orders.as(admin), {
        id: shipment.id,
        version: '',
        lines: [
          { itemId: itemIds[0], description: '', hsCode: '95' },
          { itemId: itemIds[1], description: '', hsCode: '9503.00.00.00.1' },
        ],
      }),
    ),
  ).toMatchObject({
    code: 'invalid',
    fields: { 'lines[0].hsCode': ['hsCodeInvalid'], 'lines[1].hsCode': ['hsCodeInvalid'] },
  })
  expect(await snapshot()).toEqual(before)

  // A second tab with the old version is refused.
  const lines = [
    { itemId: itemIds[0], description: 'Anime figure' },
    { itemId: itemIds[1], description: 'Plush toy' },
  ]
  await reviewDeclaration(orders.as(ana), { id: shipment.id, version: '', lines })
  const saved = await snapshot()
  expect(
    await refusal(reviewDeclaration(orders.as(ana), { id: shipment.id, version: '', lines, confirm: true })),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentChanged' })
  expect(await snapshot()).toEqual(saved)
})

test('once the shipment is packed the declaration is locked, as it was', async () => {
  const { orders, shipment, itemIds, snapshot } = await setup()
  await reviewDeclaration(orders.as(ana), {
    id: shipment.id,
    version: '',
    lines: [
      { itemId: itemIds[0], description: 'Anime figure' },
      { itemId: itemIds[1], description: 'Plush toy' },
    ],
    confirm: true,
  })
  await packShipment(orders.as(moderator), { id: shipment.id, version: 0, weight: '1250' }, RATES)
  const packed = await getDeclaration(orders.as(ana), shipment.id)
  expect(packed).toMatchObject({ status: 'packed', locked: true, version: 0 })
  expect(packed.lines.map((line) => [line.description, line.valueJpy])).toEqual([
    ['Anime figure', 3000],
    ['Plush toy', 5000],
  ])
  const before = await snapshot()
  expect(
    await refusal(
      reviewDeclaration(orders.as(ana), {
        id: shipment.id,
        version: '0',
        lines: [
          { itemId: itemIds[0], description: 'Something else' },
          { itemId: itemIds[1], description: 'Plush toy' },
        ],
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentNotAllowed' })
  expect(
    await refusal(
      editDeclaration(orders.as(admin), {
        id: shipment.id,
        version: '0',
        lines: [
          { itemId: itemIds[0], description: 'Anime figure', hsCode: '950300' },
          { itemId: itemIds[1], description: 'Plush toy', hsCode: '' },
        ],
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentNotAllowed' })
  expect(await snapshot()).toEqual(before)
})
