import { expect, test } from 'vitest'
import enPublic from './en/public.ts'
import esPublic from './es/public.ts'

// The public pages describe the product as it is (ADR 038): nothing that exists is announced as
// coming, ordering names the request form before messaging, paying names what customers can use.

const texts = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value as object).flatMap(texts)

test.each([
  ['en', enPublic, /(?<!as )\bsoon\b|\bWise\b/i, /request form/, /bank transfer/],
  ['es', esPublic, /\bpronto\b|\bWise\b/i, /formulario de solicitud/, /transferencia bancaria/],
] as const)('%s: no "soon", the form first, the bank transfer named', (_, strings, future, form, bank) => {
  expect(texts(strings).filter((text) => future.test(text))).toEqual([])
  const howToOrder = strings.home.faq.howToOrder.a
  expect(howToOrder).toMatch(form)
  expect(howToOrder.search(form)).toBeLessThan(howToOrder.search(/Instagram/))
  expect(strings.home.steps.s1.text.search(form)).toBeLessThan(strings.home.steps.s1.text.search(/Instagram/))
  for (const methods of Object.values(strings.payWith)) expect(methods).toMatch(bank)
  expect(strings.home.faq.payment.a).toContain('{{methods}}')
  expect(strings.home.steps.s3.text).toContain('{{methods}}')
})

test('no text counts with "(s)": each count has its plural forms', async () => {
  const { default: en } = await import('./en.ts')
  const { default: es } = await import('./es.ts')
  for (const strings of [en, es])
    expect(texts(strings).filter((text) => /\w\((s|es)\)/.test(text))).toEqual([])
})
