import { expect, test } from 'vitest'
import { commonPasswordCount, isCommonPassword } from './common-passwords.ts'

test('the list holds well over the 3,000 most common passwords ASVS 6.2.4 asks for', async () => {
  expect(await commonPasswordCount()).toBeGreaterThanOrEqual(10_000)
})

test('common passwords are found whatever their case and surrounding spaces', async () => {
  for (const password of [
    'password123',
    'PASSWORD123',
    '  Password123 ',
    'qwerty123',
    'iloveyou',
    'contrasena',
  ]) {
    expect(await isCommonPassword(password), password).toBe(true)
  }
})

test('uncommon passwords pass, including the ones the other tests sign up with', async () => {
  for (const password of [
    'tea with matcha 2026',
    'a brand new password',
    'correct horse battery',
    'long enough 1',
    'password123 but longer and mine',
    '',
  ]) {
    expect(await isCommonPassword(password), password).toBe(false)
  }
})
