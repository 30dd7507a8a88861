import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { FormAlert } from './form-alert.tsx'

// Every shape the pages wrote by hand before FormAlert, and FormAlert's rendering of it: the same
// markup (element, classes, id, nesting), which the browser tests and screenshots rely on.
type Props = Parameters<typeof FormAlert>[0]
const html = (props: Props, children?: string) =>
  renderToStaticMarkup(createElement(FormAlert, props, children))

const shapes: [string, Props, string | undefined, string][] = [
  [
    'a form error',
    { id: 'f-error' },
    'Refused',
    '<p id="f-error" role="alert" class="font-medium text-red-800">Refused</p>',
  ],
  [
    'a line with a margin',
    { className: 'mt-4' },
    'Refused',
    '<p role="alert" class="mt-4 font-medium text-red-800">Refused</p>',
  ],
  [
    'a small line',
    { id: 'x', className: 'text-sm' },
    'Refused',
    '<p id="x" role="alert" class="text-sm font-medium text-red-800">Refused</p>',
  ],
  [
    'a red box',
    { look: 'box' },
    'Refused',
    '<p role="alert" class="rounded-md border border-red-300 bg-red-50 p-3 font-medium text-red-900">Refused</p>',
  ],
  [
    'a red box with a margin and p-4',
    { look: 'box', className: 'mt-6 p-4' },
    'Refused',
    '<p role="alert" class="mt-6 rounded-md border border-red-300 bg-red-50 p-4 font-medium text-red-900">Refused</p>',
  ],
  [
    'a red box of normal weight',
    { id: 'f-error', look: 'box', weight: 'normal' },
    'Refused',
    '<p id="f-error" role="alert" class="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">Refused</p>',
  ],
  [
    'a title alone',
    { look: 'box', title: 'Fix the fields' },
    undefined,
    '<p role="alert" class="rounded-md border border-red-300 bg-red-50 p-3 font-semibold text-red-900">Fix the fields</p>',
  ],
  [
    'a roomy title alone',
    { look: 'box', title: 'Fix the fields', className: 'p-4' },
    undefined,
    '<p role="alert" class="rounded-md border border-red-300 bg-red-50 p-4 font-semibold text-red-900">Fix the fields</p>',
  ],
  [
    'a title and a text',
    { look: 'box', title: 'Failed', className: 'mt-4' },
    'Why',
    '<div role="alert" class="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900"><p class="font-semibold">Failed</p><p class="text-sm">Why</p></div>',
  ],
  [
    'a title and a plain text',
    { look: 'box', title: 'Failed', className: 'mt-4', detailClassName: '' },
    'Why',
    '<div role="alert" class="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900"><p class="font-semibold">Failed</p><p>Why</p></div>',
  ],
  [
    'a roomy red box with a title',
    { look: 'box', title: 'Failed', className: 'p-4' },
    'Why',
    '<div role="alert" class="rounded-md border border-red-300 bg-red-50 p-4 text-red-900"><p class="font-semibold">Failed</p><p class="mt-1 text-sm">Why</p></div>',
  ],
  [
    'a conflict',
    { tone: 'conflict', look: 'box', title: 'Changed' },
    'Reload',
    '<div role="alert" class="rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950"><p class="font-semibold">Changed</p><p class="mt-1 text-sm">Reload</p></div>',
  ],
  [
    'a warning',
    { tone: 'warning', look: 'box' },
    'Not now',
    '<p role="alert" class="rounded-md bg-amber-50 p-3 font-medium text-amber-950">Not now</p>',
  ],
  [
    'a quiet warning with a test id',
    { tone: 'warning', look: 'box', weight: 'normal', 'data-testid': 'transfer-dismissed' },
    'Dismissed',
    '<p role="alert" class="rounded-md bg-amber-50 p-3 text-amber-950" data-testid="transfer-dismissed">Dismissed</p>',
  ],
]

test.each(shapes)('%s renders as it was written by hand', (_name, props, children, markup) => {
  expect(html(props, children)).toBe(markup)
})

test('nothing to say renders nothing', () => {
  expect(renderToStaticMarkup(createElement(FormAlert, { id: 'f-error' }, null))).toBe('')
  expect(html({})).toBe('')
  expect(html({ look: 'box' }, '')).toBe('')
  expect(html({ tone: 'warning', look: 'box' })).toBe('')
})
