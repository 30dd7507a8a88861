import { createHash, randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import {
  notifications,
  orderEvents,
  purchaseRequests,
  requestItems,
  requestPhotos,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { hasGpsTag, phoneJpeg, plainPng, pngBomb } from '#tests/support/photo-fixtures.ts'
import {
  callFileRoute,
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  signedInCaller,
} from '#tests/support/route-context.ts'
import * as adminPhoto from '../admin/request-photo.ts'
import * as staffLayout from '../admin/staff-layout.tsx'
import { action as dashboardAction } from './dashboard.tsx'
import * as customerLayout from './layout.tsx'
import { middleware } from './layout.tsx'
import { loader as requestLoader } from './request.tsx'
import * as customerPhoto from './request-photo.ts'

// The request form with photos (multipart, as a browser posts it) and the photos' addresses,
// called behind their branch's middleware: what is stored, what is refused (and that nothing is
// written then), and who may see a photo.

const MB = 1024 * 1024

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const submit = (form: FormData, cookie?: string) => {
    form.set('form', 'request')
    return callRoute(
      services,
      middleware,
      formPost('/user-dashboard', form, { cookie }),
      (args) => dashboardAction(args),
      { context: { language: 'en' } },
    )
  }
  const photoAt = (
    area: 'customer' | 'admin',
    ids: { id: string; photoId: string },
    { cookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
  ) => {
    const base = area === 'customer' ? '/user-dashboard' : '/admin-dashboard'
    const request = pageRequest(`${base}/requests/${ids.id}/photos/${ids.photoId}`, { cookie })
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
    return area === 'customer'
      ? callFileRoute(services, customerLayout, customerPhoto, request, {
          params: ids,
          context: { language: 'en' },
        })
      : callFileRoute(services, staffLayout, adminPhoto, request, {
          params: ids,
          context: { language: 'en' },
        })
  }
  const view = (id: string, cookie: string) =>
    callRoute(
      services,
      middleware,
      pageRequest(`/user-dashboard/requests/${id}`, { cookie }),
      (args) => requestLoader(args as never),
      { params: { id } },
    )
  const stored = async () => ({
    requests: (await db.select().from(purchaseRequests)).length,
    items: (await db.select().from(requestItems)).length,
    photos: (await db.select().from(requestPhotos)).length,
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
    jobs: (await countJobs(pool, 'notification.email')) + (await countJobs(pool, 'notification.staff-email')),
  })
  return { db, submit, photoAt, view, stored, signedIn }
}

/** A request form: `items` are [url, photo?] pairs (a photo is a file as a browser sends it). */
function requestForm(items: [string, File?][], extra: Record<string, string> = {}): FormData {
  const form = new FormData()
  items.forEach(([url, photo], index) => {
    form.set(`items[${index}].url`, url)
    form.set(`items[${index}].quantity`, '1')
    // A file input left empty is sent as an empty file without a name.
    form.set(`items[${index}].photo`, photo ?? new File([], '', { type: 'application/octet-stream' }))
  })
  for (const [name, value] of Object.entries(extra)) form.set(name, value)
  return form
}

const file = (bytes: Uint8Array | string, name: string, type: string) =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type })
const idOf = (location: string | null) => (location ?? '').split('/')[3]?.split('?')[0] ?? ''
const fieldErrors = (data: unknown) => (data as { result: { error?: Record<string, string[]> } }).result.error

test('photos are stored re-encoded as WebP without their metadata, one per item, with the request', async () => {
  const { db, submit, view, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  await signedIn('boss@example.com', 'admin')
  const jpeg = await phoneJpeg()
  const answer = await submit(
    requestForm([
      ['https://jp.mercari.com/item/m1', file(jpeg, 'IMG_0001.JPG', 'image/jpeg')],
      ['https://www.amazon.co.jp/dp/B0'],
      ['https://www.suruga-ya.jp/product/1', file(await plainPng(), 'figure.png', 'image/png')],
    ]),
    ana.cookie,
  )
  expect(answer.status).toBe(302)
  // The customer's notification and the admin's (staff have their own list, ADR 036).
  expect(await stored()).toEqual({ requests: 1, items: 3, photos: 2, events: 1, notifications: 2, jobs: 2 })

  const items = await db.select().from(requestItems)
  const positionOf = (itemId: string) => items.find((item) => item.id === itemId)?.position ?? 0
  const photos = (await db.select().from(requestPhotos)).sort(
    (a, b) => positionOf(a.itemId) - positionOf(b.itemId),
  )
  expect(photos.map((photo) => positionOf(photo.itemId))).toEqual([1, 3])
  const [first, third] = photos
  if (!first || !third) throw new Error('two photos expected')
  expect(first).toMatchObject({ contentType: 'image/webp', width: 200, height: 300 })
  expect(first.byteSize).toBe(first.bytes.byteLength)
  expect(first.sha256).toBe(createHash('sha256').update(first.bytes).digest('hex'))
  const bytes = Buffer.from(first.bytes)
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF')
  const metadata = await sharp(bytes).metadata()
  expect(metadata).toMatchObject({ format: 'webp', width: 200, height: 300 })
  expect(metadata.exif).toBeUndefined()
  expect(metadata.xmp).toBeUndefined()
  expect(metadata.icc).toBeUndefined()
  expect(hasGpsTag(bytes)).toBe(false)
  expect(bytes.includes('Acme')).toBe(false)
  expect(third).toMatchObject({ contentType: 'image/webp', width: 64, height: 48 })

  // The request page lists each item's photo (or none).
  const page = await view(idOf(answer.headers.get('location')), ana.cookie)
  expect(page.data).toMatchObject({
    request: {
      items: [
        { position: 1, photo: { id: first.id, width: 200, height: 300 } },
        { position: 2, photo: null },
        { position: 3, photo: { id: third.id, width: 64, height: 48 } },
      ],
    },
  })
})

test('a hostile or unusable photo is a field error on its item, a 400, and nothing at all is written', async () => {
  const { submit, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  await signedIn('boss@example.com', 'admin')
  const good = file(await phoneJpeg(), 'good.jpg', 'image/jpeg')
  const truncated = await sharp(await phoneJpeg())
    .jpeg()
    .toBuffer()
  const cases: [string, File, string][] = [
    [
      'HTML named and typed as a JPEG',
      file('<!doctype html><script>alert(document.cookie)</script>', 'photo.jpg', 'image/jpeg'),
      'photoType',
    ],
    [
      'an SVG with a script',
      file(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        'photo.svg',
        'image/svg+xml',
      ),
      'photoType',
    ],
    [
      'a truncated JPEG',
      file(truncated.subarray(0, Math.floor(truncated.length / 2)), 'cut.jpg', 'image/jpeg'),
      'photoCorrupt',
    ],
    ['a PNG of 20000×20000 pixels', file(pngBomb(20_000, 20_000), 'bomb.png', 'image/png'), 'photoCorrupt'],
    [
      '5 MB and one byte',
      file(new Uint8Array(5 * MB + 1).fill(0xff), 'big.jpg', 'image/jpeg'),
      'photoTooLarge',
    ],
    ['an empty file that was chosen', file(new Uint8Array(0), 'empty.jpg', 'image/jpeg'), 'photoEmpty'],
    ['a text field where a file goes', 'not a file' as unknown as File, 'photoType'],
  ]
  for (const [label, photo, reason] of cases) {
    const form = requestForm([['https://jp.mercari.com/item/m1', good], ['https://www.amazon.co.jp/dp/B0']])
    form.set('items[1].photo', photo)
    const answer = await submit(form, ana.cookie)
    expect(answer.status, label).toBe(400)
    // Refused by the form's own rules (size, not a file) or by the photo's bytes (then the form
    // also says to check the highlighted fields).
    const { '': formErrors, ...fields } = fieldErrors(answer.data) ?? {}
    expect(fields, label).toEqual({ 'items[1].photo': [reason] })
    expect([undefined, ['errors.reasons.requestInvalid']], label).toContainEqual(formErrors)
    expect(answer.data, label).toMatchObject({ form: 'request' })
  }
  expect(await stored()).toEqual({ requests: 0, items: 0, photos: 0, events: 0, notifications: 0, jobs: 0 })
})

test('two refused photos are two field errors; a good photo beside a bad link is not stored either', async () => {
  const { submit, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const twoBad = await submit(
    requestForm([
      ['https://jp.mercari.com/item/m1', file('GIF89a but not really', 'a.gif', 'image/gif')],
      ['https://www.amazon.co.jp/dp/B0', file('%PDF-1.7', 'b.pdf', 'application/pdf')],
    ]),
    ana.cookie,
  )
  expect(twoBad.status).toBe(400)
  expect(fieldErrors(twoBad.data)).toEqual({
    '': ['errors.reasons.requestInvalid'],
    'items[0].photo': ['photoCorrupt'],
    'items[1].photo': ['photoType'],
  })
  const badLink = await submit(
    requestForm([['javascript:alert(1)', file(await plainPng(), 'a.png', 'image/png')]]),
    ana.cookie,
  )
  expect(badLink.status).toBe(400)
  expect(fieldErrors(badLink.data)).toEqual({ 'items[0].url': ['urlScheme'] })
  expect(await stored()).toEqual({ requests: 0, items: 0, photos: 0, events: 0, notifications: 0, jobs: 0 })
})

test('more files than items, or photos over 30 MB together, are refused whole (413), nothing written', async () => {
  const { submit, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const png = await plainPng()
  const eleven = requestForm(
    Array.from({ length: 10 }, (_, index): [string, File] => [
      `https://jp.mercari.com/item/m${index}`,
      file(png, `${index}.png`, 'image/png'),
    ]),
  )
  eleven.append('items[0].photo', file(png, 'extra.png', 'image/png'))
  const tooMany = await submit(eleven, ana.cookie)
  expect(tooMany.status).toBe(413)
  expect(fieldErrors(tooMany.data)).toEqual({
    '': ['errors.reasons.requestInvalid'],
    items: ['photosTooLarge'],
  })

  // Seven photos of 4.4 MB: each within its limit, 30.8 MB together: the form's own rule.
  const over = requestForm(
    Array.from({ length: 7 }, (_, index): [string, File] => [
      `https://jp.mercari.com/item/m${index}`,
      file(new Uint8Array(4.4 * MB).fill(1), `${index}.jpg`, 'image/jpeg'),
    ]),
  )
  const overTotal = await submit(over, ana.cookie)
  expect(overTotal.status).toBe(400)
  expect(fieldErrors(overTotal.data)).toEqual({ items: ['photosTooLarge'] })

  // Seven photos of 4.5 MB: 31.5 MB together, beyond what the form may post (the browser's own check
  // stops this before sending; the server's length check stops it before the action).
  const heavy = requestForm(
    Array.from({ length: 7 }, (_, index): [string, File] => [
      `https://jp.mercari.com/item/m${index}`,
      file(new Uint8Array(4.5 * MB).fill(1), `${index}.jpg`, 'image/jpeg'),
    ]),
  )
  const tooHeavy = await submit(heavy, ana.cookie)
  expect(tooHeavy.status).toBe(413)
  expect(fieldErrors(tooHeavy.data)).toMatchObject({ items: ['photosTooLarge'] })
  expect(await stored()).toMatchObject({ requests: 0, items: 0, photos: 0 })
})

test('a price or a total sent by the customer is not read: the request is stored without one', async () => {
  const { db, submit, stored, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const answer = await submit(
    requestForm([['https://jp.mercari.com/item/m1']], {
      'items[0].price': '1',
      'items[0].unitPriceJpy': '1',
      'items[0].domesticShippingJpy': '0',
      'items[0].title': 'Free item',
      'items[0].status': 'quoted',
      total: '1',
      totalJpy: '1',
      status: 'paid',
    }),
    ana.cookie,
  )
  expect(answer.status).toBe(302)
  expect(await stored()).toMatchObject({ requests: 1, items: 1, photos: 0 })
  const [item] = await db.select().from(requestItems)
  expect(item).toMatchObject({
    unitPriceJpy: null,
    domesticShippingJpy: null,
    title: null,
    status: 'pending',
    quantity: 1,
  })
  const [request] = await db.select().from(purchaseRequests)
  expect(request).toMatchObject({ status: 'submitted', quotedAt: null, paidAt: null })
  const [event] = await db.select().from(orderEvents)
  expect(event?.data).toEqual({})
})

test('a photo is served to its owner and staff only, as stored, with its headers; 304 when the browser has it', async () => {
  const { submit, photoAt, signedIn, db } = await setup()
  const ana = await signedIn('ana@example.com')
  const bruno = await signedIn('bruno@example.com')
  const admin = await signedIn('boss@example.com', 'admin')
  const moderator = await signedIn('mod@example.com', 'moderator')
  const created = await submit(
    requestForm([
      ['https://jp.mercari.com/item/m1'],
      ['https://jp.mercari.com/item/m2', file(await phoneJpeg(), 'x.jpg', 'image/jpeg')],
    ]),
    ana.cookie,
  )
  const brunos = await submit(
    requestForm([['https://jp.mercari.com/item/m3', file(await plainPng(), 'y.png', 'image/png')]]),
    bruno.cookie,
  )
  const id = idOf(created.headers.get('location'))
  const brunosId = idOf(brunos.headers.get('location'))
  const stored = await db.select().from(requestPhotos)
  const photo = stored.find((row) => row.requestId === id)
  const brunosPhoto = stored.find((row) => row.requestId === brunosId)
  if (!photo || !brunosPhoto) throw new Error('photos expected')
  const ids = { id, photoId: photo.id }

  const owner = await photoAt('customer', ids, { cookie: ana.cookie })
  expect(owner.status).toBe(200)
  expect(Object.fromEntries(owner.headers)).toMatchObject({
    'content-type': 'image/webp',
    'content-length': String(photo.byteSize),
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline; filename="item-2.webp"',
    'cache-control': 'private, max-age=3600',
    etag: `"${photo.sha256}"`,
  })
  expect(owner.headers.get('cache-control')).not.toMatch(/public/)

  // Staff: an admin in either area, a moderator through the customer area's address (the admin
  // area's guard does not admit moderators yet).
  expect((await photoAt('admin', ids, { cookie: admin.cookie })).status).toBe(200)
  expect((await photoAt('customer', ids, { cookie: admin.cookie })).status).toBe(200)
  expect((await photoAt('customer', ids, { cookie: moderator.cookie })).status).toBe(200)
  // The admin address is under the staff branch (the request pages moderators share).
  expect((await photoAt('admin', ids, { cookie: moderator.cookie })).status).toBe(200)
  expect((await photoAt('admin', ids, { cookie: ana.cookie })).status).toBe(403)

  // Someone else's photo, a photo under another request's id, made-up and malformed ids: 404.
  const notFound = [
    ['another customer', ids, bruno.cookie],
    ["Bruno's photo under Ana's request", { id, photoId: brunosPhoto.id }, ana.cookie],
    ["Ana's photo under Bruno's request", { id: brunosId, photoId: photo.id }, bruno.cookie],
    ['an unknown photo', { id, photoId: randomUUID() }, ana.cookie],
    ['a malformed photo id', { id, photoId: 'x.svg' }, ana.cookie],
    ['a malformed request id', { id: "1' or '1'='1", photoId: photo.id }, ana.cookie],
  ] as const
  for (const [label, which, cookie] of notFound) {
    const answer = await photoAt('customer', which, { cookie })
    expect(answer.status, label).toBe(404)
    expect(answer.data, label).toBe('We could not find what you were looking for.')
    expect(answer.headers.get('content-type'), label).toBe('text/plain; charset=utf-8')
  }
  // Anonymous: the login guard, as a short text (an image has no page to show it on).
  const anonymous = await photoAt('customer', ids)
  expect(anonymous.status).toBe(401)
  expect(anonymous.data).toBe('Please sign in to continue.')
  expect((await photoAt('admin', ids)).status).toBe(401)

  // The browser has it: 304, no body.
  for (const ifNoneMatch of [`"${photo.sha256}"`, `W/"${photo.sha256}"`, `"other", "${photo.sha256}"`, '*']) {
    const again = await photoAt('customer', ids, {
      cookie: ana.cookie,
      headers: { 'if-none-match': ifNoneMatch },
    })
    expect(again.status, ifNoneMatch).toBe(304)
    expect(again.data, ifNoneMatch).toBe('')
    expect(again.headers.get('etag')).toBe(`"${photo.sha256}"`)
  }
  const changed = await photoAt('customer', ids, {
    cookie: ana.cookie,
    headers: { 'if-none-match': '"other"' },
  })
  expect(changed.status).toBe(200)
})
