import { beforeAll, expect, test } from 'vitest'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { phoneJpeg } from '#tests/support/photo-fixtures.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// The request form's photos through the real server (Express, its body limits, React Router and
// the photo addresses), as a browser without JavaScript and as React Router's fetch send them:
// a photo over its limit gets its own message on the form, never a reset connection; a body over
// the form's limit a translated 413; a stored photo comes back with its headers intact.

let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let cookie: string

const MB = 1024 * 1024

beforeAll(async () => {
  ;({ server, database } = await startAppOnTestDatabase())
  const account = await insertPasswordAccount(database.pool, { email: 'ana@example.com', name: 'Ana' })
  const token = await insertSession(database.pool, account.id)
  cookie = `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}; lang=en`
})

/** A request form with one link and `photo`, as a browser encodes it (with its length). */
async function multipart(photo: File, extra: Record<string, string> = {}) {
  const form = new FormData()
  form.set('form', 'request')
  form.set('items[0].url', 'https://jp.mercari.com/item/m1')
  form.set('items[0].quantity', '1')
  form.set('items[0].photo', photo)
  for (const [name, value] of Object.entries(extra)) form.set(name, value)
  const encoded = new Response(form)
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    type: encoded.headers.get('content-type') ?? '',
  }
}

function post(path: string, { body, type }: { body: Uint8Array<ArrayBuffer> | string; type: string }) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: server.url, 'content-type': type, accept: 'text/html' },
    body,
  })
}

const count = async (table: string) =>
  (await database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number

test('a photo over 5 MB comes back as its own message on the form (400), with and without JavaScript', async () => {
  const big = await multipart(
    new File([new Uint8Array(7 * MB).fill(0xff)], 'big.jpg', { type: 'image/jpeg' }),
  )
  const page = await post('/user-dashboard', big)
  expect(page.status).toBe(400)
  expect(await page.text()).toContain('The photo is larger than 5 MB. Choose a smaller image.')
  const data = await post('/user-dashboard.data', big)
  expect(data.status).toBe(400)
  expect(await data.text()).toContain('photoTooLarge')
  expect(await count('purchase_requests')).toBe(0)
})

test("a body over the form's limit is a translated 413; the larger limit is for this form's multipart only", async () => {
  const huge = await multipart(new File([new Uint8Array(32 * MB)], 'huge.jpg', { type: 'image/jpeg' }))
  const refused = await post('/user-dashboard', huge)
  expect(refused.status).toBe(413)
  expect(await refused.text()).toBe('The data sent is too large.')

  // 2 MB of photo is fine on the request form, but not on another page's form.
  const twoMb = await multipart(
    new File([new Uint8Array(2 * MB).fill(0xff)], 'x.jpg', { type: 'image/jpeg' }),
  )
  expect((await post('/contact', twoMb)).status).toBe(413)
  // Nor is a 2 MB url-encoded body on the request form's page.
  const text = {
    body: `form=request&items%5B0%5D.notes=${'x'.repeat(2 * MB)}`,
    type: 'application/x-www-form-urlencoded',
  }
  expect((await post('/user-dashboard', text)).status).toBe(413)
  expect(await count('purchase_requests')).toBe(0)
})

test('a good photo is stored and served back to its owner: its type, nosniff, a private cache and a 304', async () => {
  const good = await multipart(
    new File([new Uint8Array(await phoneJpeg())], 'IMG_0001.JPG', { type: 'image/jpeg' }),
    {
      'items[0].price': '1',
      total: '1',
    },
  )
  const sent = await post('/user-dashboard', good)
  expect(sent.status).toBe(302)
  const location = sent.headers.get('location') ?? ''
  const { rows } = await database.pool.query(
    'SELECT p.id, p.request_id, p.sha256, i.unit_price_jpy FROM request_photos p JOIN request_items i ON i.id = p.item_id',
  )
  expect(rows).toHaveLength(1)
  expect(rows[0].unit_price_jpy).toBeNull()
  expect(location).toBe(`/user-dashboard/requests/${rows[0].request_id}`)

  const address = `${server.url}/user-dashboard/requests/${rows[0].request_id}/photos/${rows[0].id}`
  const photo = await fetch(address, { headers: { cookie } })
  expect(photo.status).toBe(200)
  expect(photo.headers.get('content-type')).toBe('image/webp')
  expect(photo.headers.get('x-content-type-options')).toBe('nosniff')
  expect(photo.headers.get('content-disposition')).toBe('inline; filename="item-1.webp"')
  expect(photo.headers.get('cache-control')).toBe('private, max-age=3600')
  expect(photo.headers.get('etag')).toBe(`"${rows[0].sha256}"`)
  const bytes = Buffer.from(await photo.arrayBuffer())
  expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP')

  // Opened in a tab (a browser's navigation accepts HTML): the photo still, not a page.
  const inTab = await fetch(address, {
    headers: { cookie, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
  })
  expect(inTab.status).toBe(200)
  expect(inTab.headers.get('content-type')).toBe('image/webp')

  const again = await fetch(address, { headers: { cookie, 'if-none-match': `"${rows[0].sha256}"` } })
  expect(again.status).toBe(304)
  // Without a session: refused, and never cacheable.
  const anonymous = await fetch(address)
  expect(anonymous.status).toBe(401)
  expect(anonymous.headers.get('cache-control')).toBe('private, no-store')

  // The request page shows it as a thumbnail with its alternative text.
  const page = await (await fetch(`${server.url}${location}`, { headers: { cookie } })).text()
  expect(page).toContain(`src="/user-dashboard/requests/${rows[0].request_id}/photos/${rows[0].id}"`)
  expect(page).toContain('alt="Photo of item 1"')
  expect(page).toContain('loading="lazy"')
})
