import type { MiddlewareFunction } from 'react-router'
import { expect, test } from 'vitest'
import enAdmin from '#app/locales/en/admin.ts'
import enCommon from '#app/locales/en/common.ts'
import { rateFormRows } from '#core/pricing/rate-tables.ts'
import { settingsFormFields } from '#core/settings/settings-form.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  type routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { seedAsInstalled } from '#tests/support/seeded.ts'
import * as audit from './audit.tsx'
import { middleware as layoutMiddleware } from './layout.tsx'
import * as rates from './rates.tsx'
import * as settings from './settings.tsx'
import { middleware as staffLayoutMiddleware } from './staff-layout.tsx'

// The settings, rate tables and audit pages called as the server would: through the admin
// branch's middleware (no page repeats its guard), for every role, with good, bad and stale input.

const PAGES = {
  settings: { module: settings, path: '/admin-dashboard/settings' },
  rates: { module: rates, path: '/admin-dashboard/rates' },
  audit: { module: audit, path: '/admin-dashboard/audit' },
} as const

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const run = (
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    layout: readonly MiddlewareFunction<Response>[] = layoutMiddleware,
  ) => callRoute(services, layout, request, handler, { context: { language: 'en' } })
  const read = (name: keyof typeof PAGES, cookie?: string, search = '') => {
    const { module, path } = PAGES[name]
    return run(pageRequest(`${path}${search}`, { cookie }), (args) => module.loader(args as never))
  }
  const post = (name: 'settings' | 'rates', fields: Record<string, string>, cookie?: string) => {
    const { module, path } = PAGES[name]
    return run(formPost(path, fields, { cookie }), (args) => module.action(args as never))
  }
  const state = async () => ({
    settings: (await pool.query('SELECT key, value FROM settings ORDER BY key')).rows,
    rates: (await pool.query('SELECT * FROM shipping_rates ORDER BY method, ceiling_g')).rows,
    audit: (await pool.query('SELECT kind, actor_email, before, after FROM audit_log ORDER BY id')).rows,
  })
  const settingsForm = async (patch: Record<string, string> = {}) => {
    const snapshot = await services.settings.snapshot({ id: 'test-admin', role: 'admin' })
    return { ...flatten(settingsFormFields(snapshot.values, snapshot.version)), ...patch }
  }
  const ratesForm = async (
    method: 'economic' | 'express',
    step: string,
    edit = (rows: ReturnType<typeof rateFormRows>) => rows,
  ) => {
    const snapshot = await services.shippingRates.snapshot({ id: 'test-admin', role: 'admin' })
    const fields: Record<string, string> = { method, step, version: snapshot.versions[method] }
    edit(rateFormRows(snapshot.tables[method])).forEach((row, index) => {
      for (const [column, value] of Object.entries(row)) fields[`rows[${index}].${column}`] = value ?? ''
    })
    return fields
  }
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  return { pool, services, run, read, post, state, settingsForm, ratesForm, signedIn }
}

function flatten(value: object, prefix = ''): Record<string, string> {
  return Object.entries(value).reduce<Record<string, string>>((fields, [key, child]) => {
    const name = prefix ? `${prefix}.${key}` : key
    return typeof child === 'object' && child !== null
      ? Object.assign(fields, flatten(child, name))
      : Object.assign(fields, { [name]: String(child) })
  }, {})
}

/** An English message for a key of `adminForm.errors` (so a refusal is known to read as words). */
const formMessage = (key: string) => (enAdmin.adminForm.errors as Record<string, string>)[key]
const reasonMessage = (key: string) => (enCommon.errors.reasons as Record<string, string>)[key]

test('anonymous visitors get the login guard, customers and moderators the admin guard, on every page and action; nothing changes', async () => {
  const { read, post, state, settingsForm, ratesForm, signedIn } = await setup()
  const before = await state()
  const settingsPost = await settingsForm({ serviceFeeJpy: '900' })
  const ratesPost = await ratesForm('express', 'save', (rows) => rows.slice(-1))
  for (const page of ['settings', 'rates', 'audit'] as const) {
    expect(await read(page)).toMatchObject({
      status: 401,
      data: { guard: 'login', redirectTo: PAGES[page].path },
    })
  }
  expect(await post('settings', settingsPost)).toMatchObject({ status: 401 })
  expect(await post('rates', ratesPost)).toMatchObject({ status: 401 })
  for (const role of ['user', 'moderator'] as const) {
    const { cookie } = await signedIn(`${role}@example.com`, role)
    for (const page of ['settings', 'rates', 'audit'] as const) {
      expect(await read(page, cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    }
    expect(await post('settings', settingsPost, cookie)).toMatchObject({
      status: 403,
      data: { guard: 'admin' },
    })
    expect(await post('rates', ratesPost, cookie)).toMatchObject({ status: 403, data: { guard: 'admin' } })
  }
  expect(await state()).toEqual(before)
})

test('a moderator stays out even under the staff layout, which lets moderators in (each service checks the role again)', async () => {
  const { run, state, settingsForm, signedIn } = await setup()
  const { cookie } = await signedIn('mod@example.com', 'moderator')
  const staffLayout = staffLayoutMiddleware
  const before = await state()
  for (const name of ['settings', 'rates', 'audit'] as const) {
    const { module, path } = PAGES[name]
    expect(
      await run(pageRequest(path, { cookie }), (args) => module.loader(args as never), staffLayout),
    ).toMatchObject({ status: 403 })
  }
  expect(
    await run(
      formPost('/admin-dashboard/settings', await settingsForm({ serviceFeeJpy: '1' }), { cookie }),
      (args) => settings.action(args as never),
      staffLayout,
    ),
  ).toMatchObject({ status: 403 })
  expect(await state()).toEqual(before)
})

test('an admin changes the settings: saved, flashed, audited, and the price every page reads changes at once', async () => {
  const { read, post, state, settingsForm, signedIn, services } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const page = await read('settings', cookie)
  expect(page.status).toBe(200)
  expect(page.data).toMatchObject({
    fields: { serviceFeeJpy: '500', taxPercent: '10', yenRates: { USD: '0.0068' } },
    demoKeys: expect.arrayContaining(['company']),
  })
  expect((await services.settings.get()).serviceFeeJpy).toBe(500)

  const saved = await post('settings', await settingsForm({ serviceFeeJpy: '¥700', taxPercent: '8' }), cookie)
  expect(saved.status).toBe(302)
  expect(saved.headers.get('location')).toBe('/admin-dashboard/settings')
  expect(saved.headers.get('set-cookie')).toMatch(/^flash=settingsSaved;/)
  expect(await services.settings.get()).toMatchObject({ serviceFeeJpy: 700, taxRate: 0.08 })
  expect((await state()).audit).toEqual([
    {
      kind: 'settings.update',
      actor_email: 'boss@example.com',
      before: { serviceFeeJpy: 500, taxRate: 0.1 },
      after: { serviceFeeJpy: 700, taxRate: 0.08 },
    },
  ])
})

test('bad settings: 400 with a message on each field, in words, and nothing written', async () => {
  const { post, state, settingsForm, signedIn } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const before = await state()
  const cases: [Record<string, string>, Record<string, string[]>][] = [
    [{ serviceFeeJpy: '-500' }, { serviceFeeJpy: ['negative'] }],
    [{ taxPercent: '150' }, { taxPercent: ['taxRange'] }],
    [{ 'yenRates.MXN': '0' }, { 'yenRates.MXN': ['rateZero'] }],
    [{ 'company.name': 'x'.repeat(121) }, { 'company.name': ['tooLong'] }],
    [{ 'messaging.whatsapp': 'javascript:alert(1)' }, { 'messaging.whatsapp': ['httpsUrl'] }],
    [
      { 'company.name': 'Shop\u202eevil', daysToPay: '' },
      { 'company.name': ['controlCharacters'], daysToPay: ['required'] },
    ],
  ]
  for (const [patch, errors] of cases) {
    const answer = await post('settings', await settingsForm({ serviceFeeJpy: '600', ...patch }), cookie)
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ result: { status: 'error', error: errors }, fresh: null })
    for (const [key] of Object.values(errors)) expect(formMessage(key as string)).toEqual(expect.any(String))
  }
  // Not a form at all.
  const garbage = await post('settings', {}, cookie)
  expect(garbage.status).toBe(400)
  expect(await state()).toEqual(before)
})

test('a save overtaken by another admin’s is told (409, in words) with what is saved now, and writes nothing', async () => {
  const { post, state, settingsForm, signedIn } = await setup()
  const first = await signedIn('ana@example.com', 'admin')
  const second = await signedIn('beto@example.com', 'admin')
  const anasForm = await settingsForm({ serviceFeeJpy: '650' })
  const betosForm = await settingsForm({ taxPercent: '12' })
  expect((await post('settings', anasForm, first.cookie)).status).toBe(302)
  const afterAna = await state()

  const stale = await post('settings', betosForm, second.cookie)
  expect(stale.status).toBe(409)
  expect(stale.data).toMatchObject({
    error: { code: 'conflict', messageKey: 'errors.reasons.settingsChanged' },
    result: { error: { '': ['errors.reasons.settingsChanged'] } },
    // Beto's form still says 500 where 650 is saved now, and 12 % where 10 % is.
    fresh: {
      version: expect.stringMatching(/^[0-9a-f]{32}$/),
      changed: { serviceFeeJpy: '650', taxPercent: '10' },
    },
  })
  expect(reasonMessage('settingsChanged')).toMatch(/Another admin/)
  expect(await state()).toEqual(afterAna)

  // Sent again with the version it was shown, it goes through on purpose.
  const { fresh } = stale.data as { fresh: { version: string } }
  expect((await post('settings', { ...betosForm, version: fresh.version }, second.cookie)).status).toBe(302)
  expect((await state()).audit.map((record: { actor_email: string }) => record.actor_email)).toEqual([
    'ana@example.com',
    'beto@example.com',
  ])
})

test('rates: an admin previews a change against today’s prices, then confirms it; the calculators’ table changes', async () => {
  const { read, post, state, ratesForm, signedIn, services } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const page = await read('rates', cookie)
  expect(page.status).toBe(200)
  const tables = (page.data as { tables: { method: string; rows: unknown[] }[] }).tables
  // The seeded rows and three spare ones.
  expect(tables.map((table) => [table.method, table.rows.length])).toEqual([
    ['economic', 21],
    ['express', 18],
  ])
  const before = await state()
  // USA at 1 kg from 6380 to 6500, and a new 750 g row added at the bottom of the grid.
  const edit = (rows: ReturnType<typeof rateFormRows>) => [
    ...rows.map((row) => (row.ceilingG === '1000' ? { ...row, usa: '6,500' } : row)),
    {
      ceilingG: '750',
      asia: '2800',
      europe_canada_mexico: '4100',
      usa: '5200',
      central_south_america: '4900',
    },
  ]
  const preview = await post('rates', await ratesForm('express', 'preview', edit), cookie)
  expect(preview.status).toBe(200)
  expect(preview.data).toMatchObject({
    method: 'express',
    preview: {
      conflict: false,
      change: { added: [750], removed: [], changed: [1000] },
      rows: expect.arrayContaining([expect.objectContaining({ ceilingG: '750' })]),
    },
  })
  const change = (
    preview.data as { preview: { change: { samples: { weightG: number; prices: { usa: unknown } }[] } } }
  ).preview.change
  expect(change.samples.find((sample) => sample.weightG === 1000)?.prices.usa).toEqual({
    before: 6380,
    after: 6500,
  })
  expect(change.samples.find((sample) => sample.weightG === 750)?.prices.usa).toEqual({
    before: 6380,
    after: 5200,
  })
  // A preview writes nothing.
  expect(await state()).toEqual(before)

  // Confirm: the preview's own rows and version go back.
  const { preview: shown } = preview.data as { preview: { version: string; rows: Record<string, string>[] } }
  const confirm: Record<string, string> = { method: 'express', step: 'save', version: shown.version }
  shown.rows.forEach((row, index) => {
    for (const [column, value] of Object.entries(row)) confirm[`rows[${index}].${column}`] = value
  })
  const saved = await post('rates', confirm, cookie)
  expect(saved.status).toBe(302)
  expect(saved.headers.get('set-cookie')).toMatch(/^flash=ratesSaved;/)
  const express = (await services.shippingRates.get()).tables.express
  expect(express.map((row) => row.ceilingG).slice(0, 3)).toEqual([500, 750, 1000])
  expect(express[2]?.prices.usa).toBe(6500)
  expect((await state()).audit).toMatchObject([{ kind: 'rates.update', actor_email: 'boss@example.com' }])

  // The same confirmation again (a double click) is stale now: told, nothing written twice.
  const twice = await post('rates', confirm, cookie)
  expect(twice.status).toBe(409)
  expect(twice.data).toMatchObject({
    error: { messageKey: 'errors.reasons.ratesChanged' },
    preview: { conflict: true, change: { added: [], removed: [], changed: [] } },
  })
  expect((await state()).audit).toHaveLength(1)
})

test('rates: bad cells and unusable tables are 400 with messages on the cells, nothing written; Back keeps the rows', async () => {
  const { post, state, ratesForm, signedIn } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const before = await state()
  const bad = await post(
    'rates',
    await ratesForm('express', 'save', (rows) =>
      rows.map((row, index) => (index === 1 ? { ...row, asia: '0', usa: '12.5' } : row)),
    ),
    cookie,
  )
  expect(bad.status).toBe(400)
  expect(bad.data).toMatchObject({
    method: 'express',
    preview: null,
    result: { error: { 'rows[1].asia': ['pricePositive'], 'rows[1].usa': ['notWhole'] } },
  })
  const short = await post('rates', await ratesForm('express', 'save', (rows) => rows.slice(0, 3)), cookie)
  expect(short.status).toBe(400)
  expect(short.data).toMatchObject({ result: { error: { rows: ['coverage'] } } })
  expect(formMessage('coverage')).toMatch(/at least \{\{max\}\} g/)
  expect((await post('rates', { method: 'teleport', step: 'save' }, cookie)).status).toBe(400)
  expect(await state()).toEqual(before)

  const back = await post('rates', await ratesForm('economic', 'edit', (rows) => [...rows].reverse()), cookie)
  expect(back.status).toBe(200)
  const rows = (back.data as { result: { initialValue: { rows: { ceilingG: string }[] } } }).result
    .initialValue.rows
  // In order again, with the three spare rows under them.
  expect(rows.map((row) => row.ceilingG)).toEqual([
    ...Array.from({ length: 18 }, (_, index) => String(300 + index * 100)),
    '',
    '',
    '',
  ])
  expect(await state()).toEqual(before)
})

test('the audit page lists role, settings and rates changes newest first, in Japan time, filtered in the URL', async () => {
  const { read, post, settingsForm, ratesForm, signedIn } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  expect(await read('audit', cookie)).toMatchObject({ status: 200, data: { records: [], people: [] } })
  await post('settings', await settingsForm({ serviceFeeJpy: '650' }), cookie)
  await post(
    'rates',
    await ratesForm('express', 'save', (rows) => rows.map((row) => ({ ...row, asia: '9999' }))),
    cookie,
  )

  const all = await read('audit', cookie)
  expect(all.data).toMatchObject({
    people: ['boss@example.com'],
    records: [
      {
        kind: 'rates.update',
        actorEmail: 'boss@example.com',
        subjectId: 'express',
        createdLabel: expect.any(String),
      },
      { kind: 'settings.update', before: { serviceFeeJpy: 500 }, after: { serviceFeeJpy: 650 } },
    ],
  })
  expect(await read('audit', cookie, '?kind=settings.update')).toMatchObject({
    data: { filter: { kind: 'settings.update' }, records: [{ kind: 'settings.update' }] },
  })
  expect(await read('audit', cookie, '?actor=someone%40example.com')).toMatchObject({
    data: { filter: { actor: 'someone@example.com' }, records: [] },
  })
  // Unreadable filters are no filters, never an error.
  expect(await read('audit', cookie, '?kind=%3Cscript%3E&after=-1')).toMatchObject({
    status: 200,
    data: { filter: { kind: null }, records: [{}, {}] },
  })
})
