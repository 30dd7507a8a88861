import { describe, expect, test } from 'vitest'
import {
  changedFormFields,
  type SettingsFormFields,
  SettingsFormSchema,
  settingsFormFields,
} from './settings-form.ts'
import { DEFAULT_SETTINGS, SettingsSchema } from './settings-schema.ts'

// The admin settings form, read as Conform hands it over (strings, or nothing for an empty field).

const VERSION = 'a'.repeat(32)
const defaults = () => settingsFormFields(DEFAULT_SETTINGS, VERSION)

type Patch = { [key: string]: unknown }

/** The default form with some fields replaced (`yenRates.USD: '0'`). */
function read(changes: Patch = {}) {
  const form = structuredClone(defaults()) as unknown as Patch
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.')
    const last = keys.pop() as string
    let target = form
    for (const key of keys) target = target[key] as Patch
    if (value === undefined) delete target[last]
    else target[last] = value
  }
  return SettingsFormSchema.safeParse(form)
}

/** The message key on each field that was refused. */
function errors(changes: Patch) {
  const result = read(changes)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

test('the stored settings, shown and sent back unchanged, read as the same settings', () => {
  const result = read()
  expect(result.success).toBe(true)
  expect(result.data).toEqual({ version: VERSION, values: DEFAULT_SETTINGS })
  // And they pass the storage schema the service checks again.
  expect(SettingsSchema.parse(result.data?.values)).toEqual(DEFAULT_SETTINGS)
})

test('numbers as people type them: yen with marks and separators, a percentage, decimal commas', () => {
  const result = read({
    serviceFeeJpy: '¥1,200',
    taxPercent: '8,25 %',
    'yenRates.USD': '0,0071',
    'yenRates.CLP': ' 6.5 ',
    storageFeePerDayJpy: '１５０円',
    freeStorageDays: '45',
    daysToPay: '10',
  })
  expect(result.data?.values).toMatchObject({
    serviceFeeJpy: 1200,
    taxRate: 0.0825,
    yenRates: { USD: 0.0071, MXN: 0.13, CLP: 6.5 },
    storageFeePerDayJpy: 150,
    freeStorageDays: 45,
    daysToPay: 10,
  })
})

describe('a value that would break something is refused on its field', () => {
  test.each([
    ['serviceFeeJpy', '-500', 'negative'],
    ['serviceFeeJpy', '100001', 'serviceFeeRange'],
    ['serviceFeeJpy', '500.5', 'notWhole'],
    ['serviceFeeJpy', 'five hundred', 'notNumber'],
    ['serviceFeeJpy', '', 'required'],
    ['serviceFeeJpy', undefined, 'required'],
    ['taxPercent', '101', 'taxRange'],
    ['taxPercent', '100.01', 'taxRange'],
    ['taxPercent', '-1', 'negative'],
    ['taxPercent', '10.125', 'taxDecimals'],
    ['taxPercent', '1e2', 'notNumber'],
    ['yenRates.USD', '0', 'rateZero'],
    ['yenRates.MXN', '0.000', 'rateZero'],
    ['yenRates.CLP', '-6.54', 'negative'],
    ['yenRates.USD', '1001', 'rateRange'],
    ['yenRates.USD', 'NaN', 'notNumber'],
    ['yenRates.USD', 'Infinity', 'notNumber'],
    ['yenRates.USD', '0.123456789', 'rateDecimals'],
    ['freeStorageDays', '-1', 'negative'],
    ['freeStorageDays', '3651', 'freeDaysRange'],
    ['storageFeePerDayJpy', '-100', 'negative'],
    ['daysToPay', '0', 'daysToPayRange'],
    ['daysToPay', '61', 'daysToPayRange'],
    ['packingAllowanceG', '5001', 'packingRange'],
    ['packingAllowanceG', '-1', 'negative'],
    ['storageReminderDays', '0', 'reminderDays'],
    ['storageReminderDays', '7, 366', 'reminderDays'],
    ['storageReminderDays', 'seven', 'reminderDays'],
    ['storageReminderDays', '7.5', 'reminderDays'],
    ['storageReminderDays', '1, 2, 3, 4, 5, 6', 'reminderDays'],
    ['storageReminderDays', '<script>', 'reminderDays'],
    ['previewHosts', 'https://jp.mercari.com/item', 'previewHosts'],
    ['previewHosts', '127.0.0.1', 'previewHosts'],
    ['previewHosts', 'localhost', 'previewHosts'],
    ['previewHosts', 'mercari.com, <script>', 'previewHosts'],
    ['previewHosts', 'evil..example', 'previewHosts'],
    ['previewHosts', Array.from({ length: 41 }, (_, n) => `shop${n}.jp`).join(', '), 'previewHosts'],
  ])('%s = %j → %s', (path, value, key) => {
    expect(errors({ [path]: value })).toEqual({ [path]: key })
  })

  test('reminder days as people type them: commas, spaces, repeats, in any order; empty is none', () => {
    expect(read({ storageReminderDays: '1 7;7' }).data?.values.storageReminderDays).toEqual([7, 1])
    expect(read({ storageReminderDays: ' １４, 3 ' }).data?.values.storageReminderDays).toEqual([14, 3])
    expect(read({ storageReminderDays: '' }).data?.values.storageReminderDays).toEqual([])
  })

  test('shop hosts as people type them: commas or lines, upper case, "www.", repeats; empty is none', () => {
    expect(
      read({ previewHosts: 'Mercari.com\nwww.amazon.co.jp, mercari.com' }).data?.values.previewHosts,
    ).toEqual(['mercari.com', 'amazon.co.jp'])
    expect(read({ previewHosts: '' }).data?.values.previewHosts).toEqual([])
  })

  test('a zero fee and a zero tax are allowed (a shop may charge none)', () => {
    expect(read({ serviceFeeJpy: '0', taxPercent: '0', storageFeePerDayJpy: '0' }).success).toBe(true)
  })

  test('every broken field is reported at once, and nothing is read', () => {
    expect(errors({ serviceFeeJpy: '-1', taxPercent: '150', 'yenRates.USD': '0' })).toEqual({
      serviceFeeJpy: 'negative',
      taxPercent: 'taxRange',
      'yenRates.USD': 'rateZero',
    })
  })
})

describe('text fields', () => {
  test.each([
    ['company.name', 'x'.repeat(121), 'tooLong'],
    ['company.address.es', 'x'.repeat(301), 'tooLong'],
    ['company.address.en', '', 'required'],
    ['bankTransfer.branch.en', '', 'required'],
    ['bankTransfer.accountType.es', 'x'.repeat(41), 'tooLong'],
    ['company.taxRegistrationId', 'T'.repeat(41), 'tooLong'],
    ['bankTransfer.swift', 'S'.repeat(21), 'tooLong'],
    ['bankTransfer.instructions.es', 'x'.repeat(2001), 'tooLong'],
    ['company.name', '   ', 'required'],
    ['bankTransfer.accountNumber', '', 'required'],
    ['bankTransfer.instructions.en', '', 'required'],
    ['company.name', 'Shop\u0000Name', 'controlCharacters'],
    ['company.name', 'Shop\nName', 'controlCharacters'],
    // A right-to-left override would show "gpj.exe" for "exe.jpg".
    ['company.name', 'Shop \u202eevil', 'controlCharacters'],
    ['company.email', 'not-an-address', 'email'],
    ['company.email', 'a@b', 'email'],
    ['messaging.whatsapp', 'javascript:alert(1)', 'httpsUrl'],
    ['messaging.instagram', 'http://instagram.com/shop', 'httpsUrl'],
    ['messaging.facebook', 'https://user:secret@facebook.com/', 'httpsUrl'],
    ['messaging.facebook', `https://facebook.com/${'x'.repeat(300)}`, 'tooLong'],
  ])('%s = %j → %s', (path, value, key) => {
    expect(errors({ [path]: value })).toEqual({ [path]: key })
  })

  test('markup and quotes are kept as text (pages show them as text); lines stay in multi-line fields', () => {
    const result = read({
      'company.name': '<script>alert("x")</script> & Co’s',
      'company.address.en': '  1-2-3 Namba\r\nOsaka  ',
      'bankTransfer.instructions.es': "Escribe 'PR-000123'\n\ten el concepto",
      'bankTransfer.swift': '',
    })
    expect(result.data?.values.company.name).toBe('<script>alert("x")</script> & Co’s')
    expect(result.data?.values.company.address.en).toBe('1-2-3 Namba\nOsaka')
    expect(result.data?.values.bankTransfer.instructions.es).toBe("Escribe 'PR-000123'\n\ten el concepto")
    expect(result.data?.values.bankTransfer.swift).toBe('')
  })

  test('a whole group left empty (nothing sent for it) is each field required, not a crash', () => {
    expect(errors({ messaging: undefined })).toEqual({
      'messaging.instagram': 'required',
      'messaging.facebook': 'required',
      'messaging.whatsapp': 'required',
    })
  })

  test('values of the wrong type are refused like typed ones', () => {
    expect(errors({ serviceFeeJpy: ['1', '2'], 'company.name': { a: 1 }, daysToPay: 7 })).toEqual({
      serviceFeeJpy: 'invalid',
      'company.name': 'invalid',
    })
  })
})

test('a missing or altered version is read as it is: the service finds it stale', () => {
  expect(read({ version: undefined }).data?.version).toBe('')
  expect(read({ version: 'x'.repeat(500) }).data?.version).toHaveLength(64)
})

test('the differences after a conflict name the fields whose saved value differs from what was sent', () => {
  const saved = settingsFormFields({ ...DEFAULT_SETTINGS, serviceFeeJpy: 600 }, 'b'.repeat(32))
  const sent: SettingsFormFields = { ...defaults(), taxPercent: '8' }
  expect(changedFormFields(saved, sent)).toEqual({ serviceFeeJpy: '600', taxPercent: '10' })
})

test('the texts customers read are stored in both languages; one stored before that reads in both (ADR 038)', () => {
  expect(DEFAULT_SETTINGS.company.address).toEqual({ es: 'Osaka, Japón', en: 'Osaka, Japan' })
  expect(DEFAULT_SETTINGS.bankTransfer.branch.es).not.toBe(DEFAULT_SETTINGS.bankTransfer.branch.en)
  expect(DEFAULT_SETTINGS.bankTransfer.accountType.es).not.toBe(DEFAULT_SETTINGS.bankTransfer.accountType.en)
  const old = SettingsSchema.shape.company.parse({ ...DEFAULT_SETTINGS.company, address: 'Namba, Osaka' })
  expect(old.address).toEqual({ es: 'Namba, Osaka', en: 'Namba, Osaka' })
  const result = read({
    'bankTransfer.branch.es': 'Sucursal Namba',
    'bankTransfer.branch.en': 'Namba Branch',
  })
  expect(result.data?.values.bankTransfer.branch).toEqual({ es: 'Sucursal Namba', en: 'Namba Branch' })
})
