import { beforeAll, expect, test } from 'vitest'
import { insertSession, SESSION_COOKIE, signedSessionCookie } from '#tests/support/accounts.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { requestedShipment } from '#tests/support/shipment-fixtures.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// The customs declaration through the real server (issue 30), without JavaScript: the customer's
// form posts and comes back with its translated messages and a 4xx on bad input (nothing
// written), the printable page is staff's, another customer's shipment is a missing one.

let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let shipmentId = ''
let itemIds: string[] = []
const cookies: Record<'ana' | 'bruno' | 'moderator', string> = { ana: '', bruno: '', moderator: '' }

beforeAll(async () => {
  ;({ server, database } = await startAppOnTestDatabase())
  const orders = await createOrderTestDeps(database.db, database.pool)
  const { shipment, first, second } = await requestedShipment(database.db, database.pool, orders)
  shipmentId = shipment.id
  itemIds = [first.itemIds[0] ?? '', second.itemIds[0] ?? '']
  for (const [who, userId] of [
    ['ana', 'user-ana'],
    ['bruno', 'user-bruno'],
    ['moderator', 'user-mod'],
  ] as const) {
    const token = await insertSession(database.pool, userId)
    cookies[who] = `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}`
  }
}, 60_000)

type Who = keyof typeof cookies | 'anonymous'

function request(
  path: string,
  who: Who,
  { body, language = 'en' }: { body?: URLSearchParams; language?: 'es' | 'en' } = {},
) {
  const cookie = [`lang=${language}`, who === 'anonymous' ? '' : cookies[who]].filter(Boolean).join('; ')
  return fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie,
      accept: 'text/html',
      ...(body ? { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body,
  })
}

function form(intent: string, descriptions: string[], version = '') {
  const body = new URLSearchParams({ intent, version })
  for (const [index, itemId] of itemIds.entries()) {
    body.append('itemId', itemId)
    body.append('description', descriptions[index] ?? '')
  }
  return body
}

const stored = async () =>
  (await database.pool.query('SELECT count(*)::int AS n FROM customs_declarations')).rows[0].n as number

test('the customer reviews the declaration: bad input is a translated 400 that writes nothing, then it is confirmed', async () => {
  const page = `/user-dashboard/shipments/${shipmentId}`
  const shown = await request(page, 'ana', { language: 'es' })
  expect(shown.status).toBe(200)
  const html = await shown.text()
  expect(html).toContain('Declaración de aduana')
  expect(html).toContain('Confirmar declaración')

  const vague = await request(page, 'ana', { body: form('declaration_confirm', ['Gift', '<b>toy</b>']) })
  expect(vague.status).toBe(400)
  const refused = await vague.text()
  expect(refused).toContain('Too vague for customs')
  expect(refused).toContain('Use English letters, numbers and simple punctuation')
  expect(refused).not.toContain('<b>toy</b>')
  const wrong = await request(page, 'ana', {
    body: new URLSearchParams({ intent: 'declaration_save', version: 'x', itemId: 'nope' }),
  })
  expect(wrong.status).toBe(400)
  // A NUL in a description, and in the version: refused the same way.
  expect(
    (await request(page, 'ana', { body: form('declaration_confirm', ['Anime\u0000figure', 'Plush toy']) }))
      .status,
  ).toBe(400)
  const nulVersion = form('declaration_save', ['Anime figure', 'Plush toy'])
  nulVersion.set('version', '1\u0000')
  expect((await request(page, 'ana', { body: nulVersion })).status).toBe(400)
  expect(await stored()).toBe(0)

  // Another customer: the shipment does not exist for them; nobody signed in: sign in first.
  expect(
    (await request(page, 'bruno', { body: form('declaration_confirm', ['Anime figure', 'Plush toy']) }))
      .status,
  ).toBe(404)
  expect(
    (await request(page, 'anonymous', { body: form('declaration_confirm', ['Anime figure', 'Plush toy']) }))
      .status,
  ).toBe(401)
  expect(await stored()).toBe(0)

  const confirmed = await request(page, 'ana', {
    body: form('declaration_confirm', ['Anime figure, PVC', 'Plush toy, polyester']),
  })
  expect(confirmed.status).toBe(200)
  expect(await confirmed.text()).toContain('Declaration confirmed')
  expect(await stored()).toBe(1)
  const after = await (await request(page, 'ana')).text()
  expect(after).toContain('Anime figure, PVC')
  expect(after).toContain('You confirmed it on')
})

test('the printable declaration is staff’s: a moderator prints it, a customer is refused', async () => {
  const path = `/admin-dashboard/shipments/${shipmentId}/declaration`
  const printed = await request(path, 'moderator')
  expect(printed.status).toBe(200)
  const html = await printed.text()
  expect(html).toContain('Sale of goods')
  expect(html).toContain('PERU')
  expect(html).toContain('Demo Proxy Shopping Japan')
  expect((await request(path, 'ana')).status).toBe(403)
  expect((await request(path, 'anonymous')).status).toBe(401)
  const staffPage = await (await request(`/admin-dashboard/shipments/${shipmentId}`, 'moderator')).text()
  expect(staffPage).toContain('Printable declaration')
})
