import { expect, test } from 'vitest'
import { RateTableFormSchema } from '#core/pricing/rate-tables.ts'
import { SettingsFormSchema } from '#core/settings/settings-form.ts'
import enAdmin from './en/admin.ts'
import esAdmin from './es/admin.ts'

// The admin forms' schemas (core/) answer with keys of `adminForm.errors`; each must have words.

test('every message either admin form can give is a key of adminForm.errors', () => {
  const keys = new Set(Object.keys(enAdmin.adminForm.errors))
  expect(Object.keys(esAdmin.adminForm.errors).sort()).toEqual([...keys].sort())
  const messages = [
    ...(SettingsFormSchema.safeParse({}).error?.issues ?? []),
    ...(SettingsFormSchema.safeParse({ serviceFeeJpy: [1], yenRates: 'x' }).error?.issues ?? []),
    ...(RateTableFormSchema.safeParse({ method: 'express', rows: [{ ceilingG: 'x', usa: '-1' }] }).error
      ?.issues ?? []),
  ].map((issue) => issue.message)
  expect(messages.length).toBeGreaterThan(10)
  expect(messages.filter((message) => !keys.has(message))).toEqual([])
})
