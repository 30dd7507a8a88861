import type { MiddlewareFunction } from 'react-router'
import { expect, test } from 'vitest'
import enAdmin from '#app/locales/en/admin.ts'
import { type ImportRuleFormFields, importRuleFormFields } from '#core/landed-cost/import-rule-form.ts'
import { dayOf } from '#core/landed-cost/import-rules.ts'
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
import * as country from './import-rule.tsx'
import * as list from './import-rules.tsx'
import { middleware as layoutMiddleware } from './layout.tsx'
import { middleware as staffLayoutMiddleware } from './staff-layout.tsx'

// The import rules pages called as the server would: through the admin branch's middleware, for
// every role, with good, bad and hostile input; what is saved is what the next estimate reads.

async function setup() {
  const { db, pool } = await createTestDatabase()
  await seedAsInstalled(db)
  const services = await createTestServices(db, pool)
  const run = (
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    params: Record<string, string> = {},
    layout: readonly MiddlewareFunction<Response>[] = layoutMiddleware,
  ) => callRoute(services, layout, request, handler, { params, context: { language: 'en' } })
  const readList = (cookie?: string, search = '') =>
    run(pageRequest(`/admin-dashboard/import-rules${search}`, { cookie }), (args) =>
      list.loader(args as never),
    )
  const readCountry = (code: string, cookie?: string) =>
    run(
      pageRequest(`/admin-dashboard/import-rules/${code}`, { cookie }),
      (args) => country.loader(args as never),
      { country: code },
    )
  const postCountry = (code: string, fields: Record<string, string>, cookie?: string) =>
    run(
      formPost(`/admin-dashboard/import-rules/${code}`, fields, { cookie }),
      (args) => country.action(args as never),
      { country: code },
    )
  const postList = (fields: Record<string, string>, cookie?: string) =>
    run(formPost('/admin-dashboard/import-rules', fields, { cookie }), (args) => list.action(args as never))
  const state = async () => ({
    rules: (
      await pool.query('SELECT country, effective_from, rule, created_by FROM import_rules ORDER BY id')
    ).rows,
    methods: (await pool.query('SELECT * FROM destination_methods ORDER BY country, method')).rows,
    audit: (
      await pool.query('SELECT kind, actor_email, subject_id, before, after FROM audit_log ORDER BY id')
    ).rows,
  })
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  /** The "Add a version" form as the page fills it for `code`, changed by `patch`. */
  const ruleForm = async (code: string, patch: Partial<ImportRuleFormFields> = {}) => {
    const rules = await services.importRules.inEffect()
    return formFields({ ...importRuleFormFields(rules.rules[code]?.rule ?? null, rules.day), ...patch })
  }
  return { pool, services, run, readList, readCountry, postCountry, postList, state, signedIn, ruleForm }
}

/** A form's fields as a browser posts them (`bands[0].upTo`, `note.es`); unticked boxes sent as nothing. */
function formFields(value: object, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [key, child] of Object.entries(value)) {
    const name = prefix ? (Array.isArray(value) ? `${prefix}[${key}]` : `${prefix}.${key}`) : key
    if (typeof child === 'object' && child !== null) Object.assign(fields, formFields(child, name))
    else if (child !== '' || !/(itemTariff|flat|formal|remove|taxIdRequired)$/.test(name))
      fields[name] = String(child)
  }
  return fields
}

const message = (key: string) =>
  key.includes('.')
    ? key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], enAdmin)
    : (enAdmin.adminForm.errors as Record<string, string>)[key]

const tomorrow = () => dayOf(new Date(Date.now() + 86_400_000))

test('anonymous visitors get the login guard, customers and moderators the admin guard; nothing changes', async () => {
  const { readList, readCountry, postCountry, postList, state, signedIn, ruleForm, run } = await setup()
  const before = await state()
  const rulePost = await ruleForm('CL', { taxName: 'IVA' })
  const methodPost = {
    country: 'VE',
    method: 'economic',
    available: 'no',
    'note.es': 'No',
    'note.en': 'No',
    effectiveFrom: '2026-01-01',
  }
  expect(await readList()).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await readCountry('CL')).toMatchObject({ status: 401, data: { guard: 'login' } })
  expect(await postCountry('CL', rulePost)).toMatchObject({ status: 401 })
  expect(await postList(methodPost)).toMatchObject({ status: 401 })
  for (const role of ['user', 'moderator'] as const) {
    const { cookie } = await signedIn(`${role}@example.com`, role)
    expect(await readList(cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    expect(await readCountry('CL', cookie)).toMatchObject({ status: 403, data: { guard: 'admin', role } })
    expect(await postCountry('CL', rulePost, cookie)).toMatchObject({ status: 403 })
    expect(await postList(methodPost, cookie)).toMatchObject({ status: 403 })
  }
  // Even under the staff layout, which lets moderators in, the service refuses them.
  const { cookie } = await signedIn('mod2@example.com', 'moderator')
  expect(
    await run(
      pageRequest('/admin-dashboard/import-rules', { cookie }),
      (args) => list.loader(args as never),
      {},
      staffLayoutMiddleware,
    ),
  ).toMatchObject({ status: 403 })
  expect(
    await run(
      formPost('/admin-dashboard/import-rules/CL', rulePost, { cookie }),
      (args) => country.action(args as never),
      { country: 'CL' },
      staffLayoutMiddleware,
    ),
  ).toMatchObject({ status: 403 })
  expect(await state()).toEqual(before)
})

test('the list: every country with a rule (in effect today, seed data) and those with restricted methods only', async () => {
  const { readList, signedIn } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const page = await readList(cookie)
  expect(page.status).toBe(200)
  const rows = (
    page.data as {
      rows: { country: string; rule: unknown; methods: { method: string; available: boolean }[] }[]
    }
  ).rows
  const byCountry = new Map(rows.map((row) => [row.country, row]))
  for (const code of ['US', 'MX', 'CL', 'AR', 'CO', 'PE', 'ES', 'DE'])
    expect(byCountry.get(code)?.rule).toMatchObject({ isSeed: true, since: expect.any(String) })
  // Puerto Rico has no rule, only its Japan Post stop.
  expect(byCountry.get('PR')).toMatchObject({
    rule: null,
    methods: [{ method: 'economic', available: false }],
  })
  // A country with neither is not listed.
  expect(byCountry.has('VE')).toBe(false)
  // Sorted by name in the page's language.
  const names = rows.map((row) => (row as unknown as { name: string }).name)
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
  // "Open its page" goes to the country's page.
  const open = await readList(cookie, '?open=ve')
  expect(open.status).toBe(302)
  expect(open.headers.get('location')).toBe('/admin-dashboard/import-rules/VE')
})

test('a country’s page: the rule in effect, its history, the form prefilled from it; unknown countries are 404', async () => {
  const { readCountry, signedIn } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const page = await readCountry('us', cookie)
  expect(page.status).toBe(200)
  const data = page.data as {
    country: string
    current: { effectiveFrom: string; rule: { bands: unknown[] } }
    history: { state: string; isSeed: boolean }[]
    form: ImportRuleFormFields
    methods: { method: string; state: { available: boolean } | null }[]
  }
  expect(data.country).toBe('US')
  // Today (after 25 July 2026) the version without the temporary surcharge is in effect.
  expect(data.current.effectiveFrom).toBe('2026-07-25')
  expect(data.history.map((version) => version.state)).toEqual(['inEffect', 'replaced'])
  expect(data.form.bands[0]).toMatchObject({ upTo: '', dutyPercent: '0', itemTariff: 'on' })
  expect(data.methods).toEqual([
    expect.objectContaining({ method: 'economic', state: expect.objectContaining({ available: false }) }),
    expect.objectContaining({ method: 'express', state: null }),
  ])
  expect(await readCountry('XX', cookie)).toMatchObject({ status: 404 })
  expect(await readCountry('JPN', cookie)).toMatchObject({ status: 404 })
  // A country without rules opens with a blank form (to add its first rule).
  const blank = await readCountry('VE', cookie)
  expect(blank.status).toBe(200)
  expect(blank.data).toMatchObject({ current: null, history: [] })
})

test('an admin adds a version from today: audited, in effect at once, the old one kept in the history', async () => {
  const { readCountry, postCountry, signedIn, ruleForm, services, state } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const before = await services.importRules.inEffect()
  expect(before.rules.CL?.rule.bands[0]?.vatBp).toBe(1900)
  const form = await ruleForm('CL')
  // Chile's VAT to 20 % in the first band, typed with a comma.
  const saved = await postCountry('CL', { ...form, 'bands[0].vatPercent': '20,0' }, cookie)
  expect(saved.status).toBe(302)
  expect(saved.headers.get('location')).toBe('/admin-dashboard/import-rules/CL')
  expect(saved.headers.get('set-cookie')).toMatch(/^flash=importRuleSaved;/)
  const after = await services.importRules.inEffect()
  expect(after.rules.CL?.rule.bands[0]?.vatBp).toBe(2000)
  const page = await readCountry('CL', cookie)
  expect((page.data as { history: { state: string; addedBy: string | null }[] }).history).toEqual([
    expect.objectContaining({ state: 'inEffect', addedBy: 'boss@example.com' }),
    expect.objectContaining({ state: 'replaced', addedBy: null }),
  ])
  const { audit: records } = await state()
  expect(records).toEqual([
    expect.objectContaining({
      kind: 'import_rule.add',
      actor_email: 'boss@example.com',
      subject_id: 'CL',
      after: expect.objectContaining({ effectiveFrom: dayOf(new Date()), 'bands.0.vatBp': 2000 }),
    }),
  ])
})

test('a version dated tomorrow waits: today’s rule stays, the history says "from", tomorrow’s estimate uses it', async () => {
  const { readCountry, postCountry, signedIn, ruleForm, services } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const form = await ruleForm('MX', { effectiveFrom: tomorrow() })
  const saved = await postCountry('MX', { ...form, 'bands[0].dutyPercent': '19' }, cookie)
  expect(saved.status).toBe(302)
  expect((await services.importRules.inEffect()).rules.MX?.rule.bands[0]?.dutyBp).toBe(3350)
  expect((await services.importRules.inEffect(tomorrow())).rules.MX?.rule.bands[0]?.dutyBp).toBe(1900)
  const page = await readCountry('MX', cookie)
  expect((page.data as { history: { state: string }[] }).history.map((version) => version.state)).toEqual([
    'future',
    'inEffect',
  ])
})

test('bad input: 400 with a message on each field, in words, and nothing written', async () => {
  const { postCountry, signedIn, ruleForm, state } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const before = await state()
  const form = await ruleForm('CL')
  const cases: [Record<string, string>, Record<string, string[]>][] = [
    [{ effectiveFrom: '' }, { effectiveFrom: ['required'] }],
    [{ 'bands[0].vatPercent': '150' }, { 'bands[0].vatPercent': ['importRules.errors.percentRange'] }],
    [{ taxName: 'x'.repeat(40) }, { taxName: ['tooLong'] }],
    [{ source: 'javascript:alert(1)' }, { source: ['importRules.errors.sourceLines'] }],
    [{ 'note.es': 'a\u202eb' }, { 'note.es': ['controlCharacters'] }],
    [{ 'note.en': 'a\u0000b' }, { 'note.en': ['controlCharacters'] }],
    [{ currency: 'JPY' }, { currency: ['invalid'] }],
    // The last band given an upper end, not a formal entry.
    [{ 'bands[1].upTo': '9000', 'bands[1].formal': '' }, { bands: ['importRules.errors.bandsOpenEnd'] }],
  ]
  for (const [patch, errors] of cases) {
    const answer = await postCountry('CL', { ...form, ...patch }, cookie)
    expect(answer.status, JSON.stringify(patch)).toBe(400)
    expect(answer.data).toMatchObject({ form: 'rule', result: { status: 'error', error: errors } })
    for (const key of Object.values(errors).flat()) expect(message(key), key).toEqual(expect.any(String))
  }
  // Not a form at all, and a hostile list index: refused before parsing.
  expect((await postCountry('CL', {}, cookie)).status).toBe(400)
  expect((await postCountry('CL', { ...form, 'bands[99999999].upTo': '1' }, cookie)).status).toBe(400)
  expect(await state()).toEqual(before)
})

test('methods: a country’s method set and put back, a restriction for a new country, all audited; bad input refused', async () => {
  const { readList, readCountry, postCountry, postList, signedIn, services, state, run } = await setup()
  const { cookie } = await signedIn('boss@example.com', 'admin')
  const express = {
    intent: 'method',
    method: 'express',
    available: 'no',
    'note.es': 'Sin vuelos',
    'note.en': 'No flights',
    source: 'https://www.post.japanpost.jp/int/information/index_en.html',
    effectiveFrom: '2026-11-01',
  }
  const unsaid = await postCountry('CL', { ...express, 'note.en': '' }, cookie)
  expect(unsaid).toMatchObject({
    status: 400,
    data: {
      form: 'method',
      method: 'express',
      result: { error: { 'note.en': ['importRules.errors.noteRequired'] } },
    },
  })
  const saved = await postCountry('CL', express, cookie)
  expect(saved.status).toBe(302)
  expect(saved.headers.get('set-cookie')).toMatch(/^flash=destinationMethodSaved;/)
  expect((await services.importRules.inEffect()).methods.CL?.express).toMatchObject({ available: false })
  // Available again with no note: the restriction goes.
  const back = await postCountry(
    'CL',
    { ...express, available: 'yes', 'note.es': '', 'note.en': '', effectiveFrom: '2026-11-20' },
    cookie,
  )
  expect(back.status).toBe(302)
  expect((await services.importRules.inEffect()).methods.CL).toBeUndefined()

  // A country with no rows, from the list page.
  const fresh = {
    country: 'VE',
    method: 'economic',
    available: 'no',
    'note.es': 'Por EE. UU.',
    'note.en': 'Via the USA',
    effectiveFrom: '2025-08-27',
  }
  expect(await postList({ ...fresh, country: 'ZZ' }, cookie)).toMatchObject({
    status: 400,
    data: { result: { error: { country: ['importRules.errors.country'] } } },
  })
  const added = await postList(fresh, cookie)
  expect(added.status).toBe(302)
  expect(added.headers.get('location')).toBe('/admin-dashboard/import-rules/VE')
  const rows = ((await readList(cookie)).data as { rows: { country: string }[] }).rows
  expect(rows.some((row) => row.country === 'VE')).toBe(true)
  expect((await readCountry('VE', cookie)).data).toMatchObject({
    methods: [
      expect.objectContaining({ method: 'economic', state: expect.objectContaining({ available: false }) }),
      expect.anything(),
    ],
  })
  const { audit: records } = await state()
  expect(
    records.map((record: { kind: string; subject_id: string }) => [record.kind, record.subject_id]),
  ).toEqual([
    ['destination.methods', 'CL:express'],
    ['destination.methods', 'CL:express'],
    ['destination.methods', 'VE:economic'],
  ])
  // The audit page reads them in words.
  const auditPage = await run(pageRequest('/admin-dashboard/audit', { cookie }), (args) =>
    audit.loader(args as never),
  )
  expect(auditPage.status).toBe(200)
})
