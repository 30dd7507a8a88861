import sharp from 'sharp'
import { expect, test } from 'vitest'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { createCatalogService } from './catalog-service.ts'
import {
  getStoreForEditing,
  listStoresForEditing,
  moveStore,
  readStoreLogo,
  removeStoreLogo,
  saveStore,
  setStoreHidden,
  setStoreLogo,
} from './store-editor.ts'
import type { StoreValues } from './store-form.ts'

// The store guide editor against a real database: every role against every change, versions,
// order, hiding, logos, the audit records and the NOTIFY that drops other processes' pages.

const VALUES: StoreValues = {
  name: 'Tienda Café',
  url: 'https://tienda-cafe.example.jp/',
  descriptionEs: 'Café de especialidad.',
  descriptionEn: 'Speciality coffee.',
  categories: ['household_and_misc'],
  logoText: 'TC',
  logoColor: '#334155',
}

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedDatabase(db)
  const make = async (email: string, role: 'user' | 'admin' | 'moderator') => {
    const account = await insertPasswordAccount(pool, { email, name: email, role })
    return { id: account.id, role } as Actor
  }
  const admin = { db, actor: await make('jefa@example.com', 'admin') }
  const others = {
    anonymous: { db, actor: null },
    customer: { db, actor: await make('ana@example.com', 'user') },
    moderator: { db, actor: await make('mod@example.com', 'moderator') },
  }
  const audit = async () =>
    (await pool.query('SELECT kind, subject_id, before, after FROM audit_log ORDER BY id')).rows
  const guide = async () =>
    (await createCatalogService({ db }).storeGuide({ language: 'en', category: null })).flatMap((group) =>
      group.stores.map((store) => ({ ...store, category: group.category })),
    )
  return { db, pool, admin, others, audit, guide }
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details.reason }
    throw error
  }
  throw new Error('expected a refusal')
}

test('only admins read or change the editor; everyone else is refused and nothing is written', async () => {
  const { admin, others, audit, pool } = await setup()
  const [first] = await listStoresForEditing(admin)
  if (!first) throw new Error('no seeded store')
  const before = (await pool.query('SELECT * FROM stores ORDER BY id')).rows
  for (const ctx of Object.values(others)) {
    const refused = { code: 'forbidden', reason: 'adminsOnly' }
    expect(await refusal(listStoresForEditing(ctx))).toEqual(refused)
    expect(await refusal(getStoreForEditing(ctx, first.id))).toEqual(refused)
    expect(await refusal(saveStore(ctx, { version: 0, values: VALUES }))).toEqual(refused)
    expect(await refusal(saveStore(ctx, { id: first.id, version: first.version, values: VALUES }))).toEqual(
      refused,
    )
    expect(await refusal(setStoreHidden(ctx, first.id, true))).toEqual(refused)
    expect(await refusal(moveStore(ctx, first.id, 'down'))).toEqual(refused)
    expect(await refusal(setStoreLogo(ctx, first.id, new Uint8Array([1])))).toEqual(refused)
    expect(await refusal(removeStoreLogo(ctx, first.id))).toEqual(refused)
  }
  expect((await pool.query('SELECT * FROM stores ORDER BY id')).rows).toEqual(before)
  expect(await audit()).toEqual([])
})

test('a new store goes last with a slug of its own, shows in the guide, is audited and announced', async () => {
  const { admin, audit, guide, pool } = await setup()
  const listener = await pool.connect()
  const heard: (string | undefined)[] = []
  listener.on('notification', (message) => heard.push(message.payload))
  await listener.query('LISTEN settings_changed')
  try {
    const one = await saveStore(admin, { version: 0, values: VALUES })
    const two = await saveStore(admin, { version: 0, values: { ...VALUES, url: 'https://otra.example.jp/' } })
    expect(one).toMatchObject({ created: true, version: 1 })
    const list = await listStoresForEditing(admin)
    expect(list.slice(-2).map((store) => [store.id, store.slug])).toEqual([
      [one.id, 'tienda-cafe'],
      [two.id, 'tienda-cafe-2'],
    ])
    const shown = (await guide()).filter((store) => store.slug === 'tienda-cafe')
    expect(shown).toEqual([
      expect.objectContaining({
        name: 'Tienda Café',
        description: 'Speciality coffee.',
        category: 'household_and_misc',
        logoUrl: null,
      }),
    ])
    const [created] = await audit()
    expect(created).toMatchObject({
      kind: 'store.create',
      subject_id: String(one.id),
      before: {},
      after: { name: 'Tienda Café', categories: 'household_and_misc', logoColor: '#334155' },
    })
    await expect.poll(() => heard.length).toBe(2)
    expect(heard).toEqual(['stores', 'stores'])
  } finally {
    listener.release()
  }
})

test('an edit needs the version its form showed: a stale one is refused and writes nothing', async () => {
  const { admin, audit } = await setup()
  const { id } = await saveStore(admin, { version: 0, values: VALUES })
  const edited = await saveStore(admin, {
    id,
    version: 1,
    values: {
      ...VALUES,
      name: 'Tienda Café Kōbō',
      categories: ['household_and_misc', 'beauty_and_cosmetics'],
    },
  })
  expect(edited).toEqual({ id, version: 2, created: false })
  expect((await audit()).at(-1)).toMatchObject({
    kind: 'store.update',
    before: { name: 'Tienda Café', categories: 'household_and_misc' },
    after: { name: 'Tienda Café Kōbō', categories: 'household_and_misc, beauty_and_cosmetics' },
  })
  // Another admin's form, opened at version 1.
  expect(await refusal(saveStore(admin, { id, version: 1, values: { ...VALUES, name: 'Pisado' } }))).toEqual({
    code: 'conflict',
    reason: 'storeChanged',
  })
  expect((await getStoreForEditing(admin, id)).name).toBe('Tienda Café Kōbō')
  // Saving what is already saved changes nothing and records nothing.
  const records = (await audit()).length
  const same = await getStoreForEditing(admin, id)
  expect(await saveStore(admin, { id, version: 2, values: same.values })).toEqual({
    id,
    version: 2,
    created: false,
  })
  expect((await audit()).length).toBe(records)
  expect(await refusal(saveStore(admin, { id: 999_999, version: 1, values: VALUES }))).toEqual({
    code: 'not_found',
    reason: 'storeNotFound',
  })
  expect(await refusal(getStoreForEditing(admin, Number.NaN))).toEqual({
    code: 'not_found',
    reason: 'storeNotFound',
  })
})

test('two admins saving the same version at once: one is saved, the other told', async () => {
  const { admin } = await setup()
  const { id } = await saveStore(admin, { version: 0, values: VALUES })
  const results = await Promise.allSettled([
    saveStore(admin, { id, version: 1, values: { ...VALUES, name: 'Primera' } }),
    saveStore(admin, { id, version: 1, values: { ...VALUES, name: 'Segunda' } }),
  ])
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
  const rejected = results.find((result) => result.status === 'rejected')
  expect(isAppError(rejected?.reason, 'conflict')).toBe(true)
  expect((await getStoreForEditing(admin, id)).version).toBe(2)
})

test('a hidden store leaves the guide but stays in the editor; showing it brings it back', async () => {
  const { admin, audit, guide } = await setup()
  const [amazon] = (await listStoresForEditing(admin)).filter((store) => store.slug === 'amazon-japan')
  if (!amazon) throw new Error('no Amazon')
  await setStoreHidden(admin, amazon.id, true)
  await setStoreHidden(admin, amazon.id, true)
  expect((await guide()).some((store) => store.slug === 'amazon-japan')).toBe(false)
  expect((await listStoresForEditing(admin)).find((store) => store.id === amazon.id)?.hidden).toBe(true)
  await setStoreHidden(admin, amazon.id, false)
  expect((await guide()).filter((store) => store.slug === 'amazon-japan')).toHaveLength(2)
  expect((await audit()).map((record) => record.kind)).toEqual(['store.hide', 'store.show'])
})

test('moving up and down reorders the guide; the ends do nothing; moves at once never tie', async () => {
  const { admin, audit, pool } = await setup()
  const ids = async () => (await listStoresForEditing(admin)).map((store) => store.id)
  const start = await ids()
  const [a, b, c] = start
  if (a === undefined || b === undefined || c === undefined) throw new Error('too few stores')
  await moveStore(admin, b, 'up')
  expect((await ids()).slice(0, 3)).toEqual([b, a, c])
  await moveStore(admin, b, 'up')
  expect((await ids()).slice(0, 3)).toEqual([b, a, c])
  const last = start.at(-1) ?? 0
  await moveStore(admin, last, 'down')
  expect((await ids()).at(-1)).toBe(last)
  expect(
    (await audit()).map((record) => [record.kind, record.before.position, record.after.position]),
  ).toEqual([['store.move', 2, 1]])
  await Promise.all([moveStore(admin, c, 'up'), moveStore(admin, a, 'down'), moveStore(admin, last, 'up')])
  const orders = (await pool.query('SELECT sort_order FROM stores ORDER BY sort_order')).rows.map(
    (row) => row.sort_order,
  )
  expect(orders).toEqual(start.map((_, index) => index))
  expect(new Set(await ids()).size).toBe(start.length)
  expect(await refusal(moveStore(admin, 999_999, 'up'))).toEqual({
    code: 'not_found',
    reason: 'storeNotFound',
  })
})

test('a logo: our PNG is stored and served at an address of its own; removed, the monogram is back', async () => {
  const { admin, audit, guide, db } = await setup()
  const { id } = await saveStore(admin, { version: 0, values: VALUES })
  const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#047857' } })
    .png()
    .toBuffer()
  await setStoreLogo(admin, id, new Uint8Array(png))
  const card = (await guide()).find((store) => store.slug === 'tienda-cafe')
  expect(card?.logoUrl).toMatch(new RegExp(`^/store-logos/${id}-[0-9a-f]{16}\\.png$`))
  const shaStart = card?.logoUrl?.slice(-20, -4) ?? ''
  const stored = await readStoreLogo(db, id, shaStart)
  expect((await sharp(stored ?? new Uint8Array()).metadata()).width).toBe(192)
  expect(await readStoreLogo(db, id, '0'.repeat(16))).toBeNull()
  expect(await readStoreLogo(db, id, "' or 1=1 --")).toBeNull()
  // A refused upload changes nothing.
  const unsafe = new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x"/></svg>',
  )
  expect(await refusal(setStoreLogo(admin, id, unsafe))).toEqual({ code: 'invalid', reason: 'logoUnsafe' })
  expect((await getStoreForEditing(admin, id)).logoUrl).toBe(card?.logoUrl)
  await removeStoreLogo(admin, id)
  expect((await guide()).find((store) => store.slug === 'tienda-cafe')?.logoUrl).toBeNull()
  expect(await readStoreLogo(db, id, shaStart)).toBeNull()
  expect((await audit()).map((record) => [record.kind, record.after.logo])).toEqual([
    ['store.create', undefined],
    ['store.logo', shaStart],
    ['store.logo', null],
  ])
})
