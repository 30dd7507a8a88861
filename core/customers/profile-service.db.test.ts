import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { addresses, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { refusal } from '#tests/support/refusal.ts'
import type { AddressInput } from './profile-schemas.ts'
import {
  createAddress,
  deleteAddress,
  getAddress,
  getProfile,
  listAddresses,
  setDefaultAddress,
  updateAddress,
  updateProfile,
} from './profile-service.ts'

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }

async function setup() {
  const { db } = await createTestDatabase()
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user', language: 'es' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
  ])
  const as = (actor: Actor | null) => ({ db, actor })
  return { db, as }
}

const HOME: AddressInput = {
  fullName: 'Ana Pérez',
  street: 'Av. Insurgentes Sur 1234, depto. 5',
  city: 'Ciudad de México',
  region: 'CDMX',
  postalCode: '03100',
  country: 'MX',
  phone: '+52 55 1234 5678',
  makeDefault: false,
}

test('the profile is read and saved: name, phone (empty removes it), the language e-mails follow', async () => {
  const { db, as } = await setup()
  expect(await getProfile(as(ana))).toEqual({
    name: 'Ana Pérez',
    email: 'ana@example.com',
    phone: null,
    language: 'es',
  })
  // The phone is kept in E.164 (ADR 038).
  await updateProfile(as(ana), { name: '  Ana María Pérez ', phone: '+52 (55) 1234-5678', language: 'en' })
  expect(await getProfile(as(ana))).toEqual({
    name: 'Ana María Pérez',
    email: 'ana@example.com',
    phone: '+525512345678',
    language: 'en',
  })
  await updateProfile(as(ana), { name: 'Ana', phone: undefined, language: 'es' })
  expect(await getProfile(as(ana))).toMatchObject({ phone: null, language: 'es' })
  // Bruno's row is untouched.
  const [other] = await db.select().from(users).where(eq(users.id, bruno.id))
  expect(other).toMatchObject({ name: 'Bruno Díaz', phone: null, language: 'es' })
})

test('bad profile input is refused field by field and nothing is written', async () => {
  const { db, as } = await setup()
  const before = await db.select().from(users).where(eq(users.id, ana.id))
  const cases: [Record<string, unknown>, Record<string, string[]>][] = [
    [{ name: '', language: 'es' }, { name: ['required'] }],
    [{ name: '   ', language: 'es' }, { name: ['required'] }],
    [{ name: 'a'.repeat(101), language: 'es' }, { name: ['tooLong'] }],
    [{ name: '<script>alert(1)</script>', language: 'es' }, { name: ['invalidCharacters'] }],
    [{ name: 'Ana\u0000', language: 'es' }, { name: ['invalidCharacters'] }],
    [{ name: 42, language: 'es' }, { name: ['required'] }],
    [{ name: 'Ana', language: 'fr' }, { language: ['language'] }],
    [{ name: 'Ana', language: ['es'] }, { language: ['language'] }],
    [{ name: 'Ana', language: 'es', phone: 'call me' }, { phone: ['phoneInvalid'] }],
    [{ name: 'Ana', language: 'es', phone: '12345' }, { phone: ['phoneInvalid'] }],
    [{ name: 'Ana', language: 'es', phone: '55+1234567' }, { phone: ['phoneInvalid'] }],
    [{ name: 'Ana', language: 'es', phone: '1'.repeat(16) }, { phone: ['phoneInvalid'] }],
    [{ name: 'Ana', language: 'es', phone: '1 '.repeat(21) }, { phone: ['tooLong'] }],
    [{ name: 'Ana', language: 'es', phone: '<script>' }, { phone: ['phoneInvalid'] }],
  ]
  for (const [input, fields] of cases) {
    expect(await refusal(updateProfile(as(ana), input as never)), JSON.stringify(input).slice(0, 60)).toEqual(
      {
        code: 'invalid',
        reason: 'profileInvalid',
        fields,
      },
    )
  }
  expect(await refusal(updateProfile(as(null), { name: 'X', language: 'es' }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await db.select().from(users).where(eq(users.id, ana.id))).toEqual(before)
})

test('the first address is the default; one default at a time; default first in the list', async () => {
  const { db, as } = await setup()
  const home = await createAddress(as(ana), HOME)
  const office = await createAddress(as(ana), {
    ...HOME,
    fullName: 'Ana Pérez (oficina)',
    // Peru's post asks for neither.
    country: 'PE',
    phone: '+51 1 234 5678',
    region: undefined,
    postalCode: undefined,
  })
  let list = await listAddresses(as(ana))
  expect(list.map((address) => [address.id, address.isDefault])).toEqual([
    [home.id, true],
    [office.id, false],
  ])
  // Optional fields are stored empty (the columns have no null).
  expect(await getAddress(as(ana), office.id)).toMatchObject({ region: '', postalCode: '' })

  await setDefaultAddress(as(ana), office.id)
  list = await listAddresses(as(ana))
  expect(list.map((address) => [address.id, address.isDefault])).toEqual([
    [office.id, true],
    [home.id, false],
  ])
  // Again: still the default, nothing else changes.
  await setDefaultAddress(as(ana), office.id)
  expect((await listAddresses(as(ana))).filter((address) => address.isDefault)).toHaveLength(1)

  // A new address asked to be the default takes it over.
  const third = await createAddress(as(ana), { ...HOME, city: 'Guadalajara', makeDefault: true })
  expect((await listAddresses(as(ana)))[0]).toMatchObject({ id: third.id, isDefault: true })

  // Editing: changes fields; an unticked box leaves the default where it is; ticked moves it.
  await updateAddress(as(ana), home.id, { ...HOME, street: 'Calle Nueva 1' })
  expect(await getAddress(as(ana), home.id)).toMatchObject({ street: 'Calle Nueva 1', isDefault: false })
  await updateAddress(as(ana), home.id, { ...HOME, makeDefault: true })
  expect((await listAddresses(as(ana))).filter((a) => a.isDefault).map((a) => a.id)).toEqual([home.id])
  const rows = await db.select().from(addresses).where(eq(addresses.userId, ana.id))
  expect(rows.filter((row) => row.isDefault)).toHaveLength(1)
})

test('deleting the default makes the newest remaining one the default', async () => {
  const { as } = await setup()
  const first = await createAddress(as(ana), HOME)
  const second = await createAddress(as(ana), { ...HOME, city: 'Puebla' })
  const third = await createAddress(as(ana), { ...HOME, city: 'Monterrey' })
  await deleteAddress(as(ana), first.id)
  expect((await listAddresses(as(ana))).map((a) => [a.id, a.isDefault])).toEqual([
    [third.id, true],
    [second.id, false],
  ])
  // A non-default one: the default stays.
  await deleteAddress(as(ana), second.id)
  expect((await listAddresses(as(ana))).map((a) => [a.id, a.isDefault])).toEqual([[third.id, true]])
  // Twice (a second tab): not found, nothing else happens.
  expect(await refusal(deleteAddress(as(ana), second.id))).toMatchObject({
    code: 'not_found',
    reason: 'addressNotFound',
  })
  await deleteAddress(as(ana), third.id)
  expect(await listAddresses(as(ana))).toEqual([])
})

test('another customer’s address, a bad id or no user: not found / refused, nothing changes', async () => {
  const { db, as } = await setup()
  const home = await createAddress(as(ana), HOME)
  const before = await db.select().from(addresses)
  for (const id of [home.id, 'nope', '', "1' or '1'='1", '00000000-0000-0000-0000-000000000000']) {
    const notFound = { code: 'not_found', reason: 'addressNotFound' }
    if (id !== home.id) {
      expect(await refusal(getAddress(as(ana), id))).toMatchObject(notFound)
    }
    expect(await refusal(getAddress(as(bruno), id))).toMatchObject(notFound)
    expect(await refusal(updateAddress(as(bruno), id, HOME))).toMatchObject(notFound)
    expect(await refusal(setDefaultAddress(as(bruno), id))).toMatchObject(notFound)
    expect(await refusal(deleteAddress(as(bruno), id))).toMatchObject(notFound)
  }
  expect(await listAddresses(as(bruno))).toEqual([])
  expect(await refusal(listAddresses(as(null)))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(createAddress(as(null), HOME))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(deleteAddress(as(null), home.id))).toMatchObject({ code: 'unauthorized' })
  expect(await db.select().from(addresses)).toEqual(before)
})

test('bad address input is refused field by field and nothing is written', async () => {
  const { db, as } = await setup()
  const cases: [Partial<Record<keyof AddressInput, unknown>>, Record<string, string[]>][] = [
    [{ fullName: '' }, { fullName: ['required'] }],
    [{ fullName: 'a'.repeat(121) }, { fullName: ['tooLong'] }],
    [{ street: 's'.repeat(301) }, { street: ['tooLong'] }],
    [{ street: '<script>alert(1)</script>' }, { street: ['invalidCharacters'] }],
    [{ city: 'Lima\nCallao' }, { city: ['invalidCharacters'] }],
    [{ city: undefined }, { city: ['required'] }],
    [{ region: 'r'.repeat(121) }, { region: ['tooLong'] }],
    [{ postalCode: '1'.repeat(21) }, { postalCode: ['tooLong'] }],
    [{ postalCode: '06700;DROP' }, { postalCode: ['postalCodeInvalid'] }],
    [{ country: 'JP' }, { country: ['country'] }],
    [{ country: 'mx' }, { country: ['country'] }],
    [{ country: 'XX' }, { country: ['country'] }],
    [{ country: '' }, { country: ['country'] }],
    [{ country: 7 }, { country: ['country'] }],
    [{ phone: '' }, { phone: ['required'] }],
    [{ phone: 'abc' }, { phone: ['phoneInvalid'] }],
    // Checked for the country (ADR 038): Mexico's post needs a state and a five-digit code; the
    // phone must be one of Mexico's when written without a country code.
    [{ region: undefined }, { region: ['regionRequired'] }],
    [{ postalCode: '0310' }, { postalCode: ['postalCodeFormat'] }],
    [{ phone: '12 34' }, { phone: ['phoneInvalid'] }],
    [{ phone: '99 9999 9999 99' }, { phone: ['phoneCountry'] }],
    // The address: the USA, postal code "ABCDE", no state.
    [
      { country: 'US', postalCode: 'ABCDE', region: undefined, phone: '+1 212 555 0123' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [
      { fullName: 5, phone: 'x' },
      { fullName: ['required'], phone: ['phoneInvalid'] },
    ],
  ]
  for (const [change, fields] of cases) {
    const input = { ...HOME, ...change } as AddressInput
    expect(await refusal(createAddress(as(ana), input)), JSON.stringify(change).slice(0, 60)).toEqual({
      code: 'invalid',
      reason: 'profileInvalid',
      fields,
    })
  }
  expect(await db.select().from(addresses)).toEqual([])
  // Peru without a region, a country without postal codes: both fine, the phone in E.164.
  await createAddress(as(ana), { ...HOME, country: 'PE', region: undefined, postalCode: '15074' })
  await createAddress(as(ana), { ...HOME, country: 'BO', region: undefined, postalCode: undefined })
  expect((await listAddresses(as(ana))).map((address) => address.phone)).toEqual([
    '+525512345678',
    '+525512345678',
  ])
})

test('at most 10 addresses, even when several tabs add the last ones at once', async () => {
  const { as } = await setup()
  for (let n = 0; n < 8; n += 1) await createAddress(as(ana), { ...HOME, city: `Ciudad ${n}` })
  const results = await Promise.allSettled(
    ['A', 'B', 'C', 'D', 'E', 'F'].map((city) => createAddress(as(ana), { ...HOME, city })),
  )
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2)
  for (const result of results) {
    if (result.status === 'rejected') {
      expect(await refusal(Promise.reject(result.reason))).toMatchObject({
        code: 'conflict',
        reason: 'addressLimit',
      })
    }
  }
  expect(await listAddresses(as(ana))).toHaveLength(10)
  // Bruno's book is his own.
  await createAddress(as(bruno), HOME)
})

test('two tabs choosing different defaults at once: one default, no error', async () => {
  const { as } = await setup()
  const ids = []
  for (let n = 0; n < 4; n += 1) ids.push((await createAddress(as(ana), { ...HOME, city: `C${n}` })).id)
  for (let round = 0; round < 5; round += 1) {
    await Promise.all(ids.map((id) => setDefaultAddress(as(ana), id)))
    const defaults = (await listAddresses(as(ana))).filter((address) => address.isDefault)
    expect(defaults).toHaveLength(1)
  }
  // Deleting and choosing at once: still exactly one default of what remains.
  await Promise.allSettled([deleteAddress(as(ana), ids[0] ?? ''), setDefaultAddress(as(ana), ids[1] ?? '')])
  const remaining = await listAddresses(as(ana))
  expect(remaining.filter((address) => address.isDefault)).toHaveLength(1)
})
