import { describe, expect, test } from 'vitest'
import { addressRule, formatPhone, normalizePhone } from './address-rules.ts'
import { AddressSchema, ProfileSchema } from './profile-schemas.ts'

const base = {
  fullName: 'Ana Pérez',
  street: 'Calle 1',
  city: 'Ciudad',
  makeDefault: false,
}

/** The field errors AddressSchema gives, or the stored value. */
function check(fields: Record<string, unknown>) {
  const result = AddressSchema.safeParse({ ...base, ...fields })
  if (result.success) return { ok: result.data }
  const errors: Record<string, string[]> = {}
  for (const issue of result.error.issues) {
    const path = issue.path.join('.')
    errors[path] = [...(errors[path] ?? []), issue.message]
  }
  return { errors }
}

describe('per-country rules', () => {
  // [country, a good postal code, a good region (or none), a phone of the country written without its code,
  //  a bad postal code, what is stored]
  const good: [string, Record<string, string>, Record<string, string>][] = [
    [
      'US',
      { postalCode: '10001-1234', region: 'new york', phone: '(212) 555-0123' },
      { postalCode: '10001-1234', region: 'NY', phone: '+12125550123' },
    ],
    [
      'MX',
      { postalCode: '03100', region: 'Ciudad de México', phone: '55 1234 5678' },
      { postalCode: '03100', region: 'Ciudad de México', phone: '+525512345678' },
    ],
    [
      'ES',
      { postalCode: '28013', region: 'Madrid', phone: '612 34 56 78' },
      { postalCode: '28013', region: 'Madrid', phone: '+34612345678' },
    ],
    [
      'CA',
      { postalCode: 'k1a 0b1', region: 'Ontario', phone: '613 555 0123' },
      { postalCode: 'K1A 0B1', region: 'ON', phone: '+16135550123' },
    ],
    [
      'BR',
      { postalCode: '01310-100', region: 'sao paulo', phone: '11 91234 5678' },
      { postalCode: '01310-100', region: 'SP', phone: '+5511912345678' },
    ],
    [
      'AU',
      { postalCode: '2000', region: 'nsw', phone: '0412 345 678' },
      { postalCode: '2000', region: 'NSW', phone: '+61412345678' },
    ],
    [
      'PE',
      { postalCode: '15074', region: '', phone: '+51 1 234 5678' },
      { postalCode: '15074', phone: '+5112345678' },
    ],
    [
      'CL',
      { postalCode: '7500000', phone: '+56 9 6123 4567' },
      { postalCode: '7500000', phone: '+56961234567' },
    ],
    [
      'GB',
      { postalCode: 'sw1a 1aa', phone: '+44 20 7946 0958' },
      { postalCode: 'SW1A 1AA', phone: '+442079460958' },
    ],
    // Bolivia has no postal codes: none needed, none checked.
    ['BO', { phone: '+591 2 2123456' }, { phone: '+59122123456' }],
  ]
  test.each(good)('%s: a good address is stored as the post writes it', (country, fields, stored) => {
    const result = check({ country, ...fields })
    expect(result).toEqual({ ok: expect.objectContaining({ country, ...stored }) })
    // Parsing is idempotent: what is stored parses to itself.
    const again = AddressSchema.parse((result as { ok: unknown }).ok)
    expect(again).toEqual((result as { ok: unknown }).ok)
  })

  const bad: [string, Record<string, string>, Record<string, string[]>][] = [
    // The issue's address: a US postal code "ABCDE" and no state.
    [
      'US',
      { postalCode: 'ABCDE', phone: '+1 212 555 0123' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [
      'US',
      { postalCode: '', region: 'NY', phone: '+1 212 555 0123' },
      { postalCode: ['postalCodeRequired'] },
    ],
    [
      'US',
      { postalCode: '1000', region: 'Narnia', phone: '+1 212 555 0123' },
      { postalCode: ['postalCodeFormat'], region: ['regionUnknown'] },
    ],
    [
      'MX',
      { postalCode: '0310', phone: '55 1234 5678' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [
      'ES',
      { postalCode: '99000', region: '', phone: '612345678' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [
      'CA',
      { postalCode: '12345', region: 'Texas', phone: '613 555 0123' },
      { postalCode: ['postalCodeFormat'], region: ['regionUnknown'] },
    ],
    [
      'BR',
      { postalCode: '0131-100', phone: '11 91234 5678' },
      { postalCode: ['postalCodeFormat'], region: ['regionRequired'] },
    ],
    [
      'AU',
      { postalCode: '200', region: 'Bavaria', phone: '0412 345 678' },
      { postalCode: ['postalCodeFormat'], region: ['regionUnknown'] },
    ],
    ['CL', { postalCode: '75000', phone: '+56 9 6123 4567' }, { postalCode: ['postalCodeFormat'] }],
    ['DE', { postalCode: '', phone: '+49 30 123456' }, { postalCode: ['postalCodeRequired'] }],
    // A phone with no country code that is not one of the country's; one that cannot exist.
    ['MX', { postalCode: '03100', region: 'CDMX', phone: '99 9999 9999 99' }, { phone: ['phoneCountry'] }],
    ['MX', { postalCode: '03100', region: 'CDMX', phone: '+52 1' }, { phone: ['phoneInvalid'] }],
    ['MX', { postalCode: '03100', region: 'CDMX', phone: '+999 1234 5678' }, { phone: ['phoneInvalid'] }],
    ['MX', { postalCode: '03100', region: 'CDMX', phone: 'llámame' }, { phone: ['phoneInvalid'] }],
  ]
  test.each(bad)('%s: %j is refused on its fields', (country, fields, errors) => {
    expect(check({ country, ...fields })).toEqual({ errors })
  })

  test('the country checks show beside the other fields’ errors, each once', () => {
    expect(check({ fullName: '', city: undefined, country: 'US', postalCode: 'ABCDE', phone: '12' })).toEqual(
      {
        errors: {
          fullName: ['required'],
          city: ['required'],
          phone: ['phoneInvalid'],
          postalCode: ['postalCodeFormat'],
          region: ['regionRequired'],
        },
      },
    )
  })

  test('the form learns what each country needs', () => {
    expect(addressRule('US')).toEqual({
      postalRequired: true,
      regionRequired: true,
      regionKind: 'state',
      example: '10001',
      regionExample: 'NY, New York',
    })
    expect(addressRule('ES')).toMatchObject({
      postalRequired: true,
      regionRequired: true,
      regionKind: 'province',
    })
    expect(addressRule('MX')).toMatchObject({
      postalRequired: true,
      regionRequired: true,
      regionKind: 'state',
    })
    expect(addressRule('BO')).toEqual({
      postalRequired: false,
      regionRequired: false,
      regionKind: 'region',
      example: null,
      regionExample: null,
    })
  })
})

describe('phones', () => {
  test('normalised to E.164, read for the country when written without its code', () => {
    expect(normalizePhone('+52 (55) 1234-5678')).toBe('+525512345678')
    expect(normalizePhone('0052 55 1234 5678')).toBe('+525512345678')
    expect(normalizePhone('55 1234 5678', 'MX')).toBe('+525512345678')
    expect(normalizePhone('55 1234 5678')).toEqual({ error: 'phoneInvalid' })
    expect(normalizePhone('123', 'MX')).toEqual({ error: 'phoneCountry' })
  })

  test('shown in the international format; an old unreadable one as it was stored', () => {
    expect(formatPhone('+525512345678')).toBe('+52 55 1234 5678')
    expect(formatPhone('call me at noon')).toBe('call me at noon')
  })

  test('the profile’s phone needs its country code and is kept in E.164', () => {
    expect(ProfileSchema.parse({ name: 'Ana', phone: '+52 55 1234 5678', language: 'es' }).phone).toBe(
      '+525512345678',
    )
    const refused = ProfileSchema.safeParse({ name: 'Ana', phone: '55 1234 5678', language: 'es' })
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['phone', 'phoneInvalid'],
    ])
  })
})

test('read as the browser reads the form (Conform: an empty field is missing), the country’s messages show beside the others', async () => {
  const { parseWithZod } = await import('@conform-to/zod/v4')
  const form = new FormData()
  for (const [name, value] of Object.entries({
    fullName: '',
    street: '',
    city: '',
    region: '',
    postalCode: 'ABCDE',
    country: 'US',
    phone: '',
  }))
    form.set(name, value)
  expect(parseWithZod(form, { schema: AddressSchema }).reply().error).toEqual({
    fullName: ['required'],
    street: ['required'],
    city: ['required'],
    phone: ['required'],
    postalCode: ['postalCodeFormat'],
    region: ['regionRequired'],
  })
})
