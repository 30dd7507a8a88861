import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { expect, test } from 'vitest'
import { getServerI18n } from '#app/i18n.server.ts'
import { VoidAmount } from './void-amount.tsx'

// A cancelled shipment's price is struck through and says it is not charged (ADR 038).

const render = (language: 'es' | 'en', voided: boolean) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: getServerI18n(language, ['common']) },
      createElement(VoidAmount, { voided }, 'JPY 4,840'),
    ),
  )

test('a voided amount is struck through with words that say so; a live one is as it is', () => {
  expect(render('en', true)).toBe(
    '<s class="text-slate-600">JPY 4,840</s> <span class="font-semibold">(cancelled, not charged)</span>',
  )
  expect(render('es', true)).toContain('(cancelado, sin cobro)')
  expect(render('en', false)).toBe('JPY 4,840')
})
