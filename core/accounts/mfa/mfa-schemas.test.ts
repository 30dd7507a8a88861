import { expect, test } from 'vitest'
import {
  BackupCodeSchema,
  CodeSchema,
  EnrollFactorSchema,
  FriendlyNameSchema,
  PhoneSchema,
} from './mfa-schemas.ts'

const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message

test('phone numbers are normalised to E.164, and anything else is refused', () => {
  expect(PhoneSchema.parse('+34 600 11 22 33')).toBe('+34600112233')
  expect(PhoneSchema.parse('0052 (55) 1234-5678')).toBe('+525512345678')
  expect(PhoneSchema.parse(' +1.415.555.0100 ')).toBe('+14155550100')
  for (const bad of ['600112233', '+0123456789', '+12', '+1234567890123456', 'call me', '+34 600<script>']) {
    expect(firstError(PhoneSchema.safeParse(bad))).toBe('phoneInvalid')
  }
  expect(firstError(PhoneSchema.safeParse(''))).toBe('required')
  expect(firstError(PhoneSchema.safeParse('+3'.repeat(40)))).toBe('phoneInvalid')
  expect(firstError(PhoneSchema.safeParse(34600112233))).toBe('required')
})

test('friendly names: required, at most 60 characters, no control characters', () => {
  expect(FriendlyNameSchema.parse('  Móvil de Ana  ')).toBe('Móvil de Ana')
  expect(firstError(FriendlyNameSchema.safeParse('   '))).toBe('required')
  expect(firstError(FriendlyNameSchema.safeParse('x'.repeat(61)))).toBe('nameTooLong')
  expect(firstError(FriendlyNameSchema.safeParse('bad\u0000name'))).toBe('nameInvalid')
  expect(firstError(FriendlyNameSchema.safeParse('rtl\u202Ename'))).toBe('nameInvalid')
})

test('codes: six digits, spaces forgiven', () => {
  expect(CodeSchema.parse('123 456')).toBe('123456')
  expect(firstError(CodeSchema.safeParse(''))).toBe('required')
  for (const bad of ['12345', '1234567', 'abcdef', '١٢٣٤٥٦'])
    expect(firstError(CodeSchema.safeParse(bad))).toBe('codeFormat')
  expect(BackupCodeSchema.parse(' ABCDE-fgh23 ')).toBe('abcdefgh23')
  expect(firstError(BackupCodeSchema.safeParse('abc'))).toBe('backupCodeFormat')
})

test('enrolment input: a type, a name, and a phone for phones only', () => {
  expect(EnrollFactorSchema.parse({ type: 'totp', friendlyName: 'App' })).toEqual({
    type: 'totp',
    friendlyName: 'App',
  })
  expect(EnrollFactorSchema.safeParse({ type: 'phone', friendlyName: 'Móvil' }).success).toBe(false)
  expect(EnrollFactorSchema.safeParse({ type: 'email', friendlyName: 'x' }).success).toBe(false)
})
