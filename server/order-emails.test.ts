import { expect, test } from 'vitest'
import { composeNotificationEmail, notificationValues } from './order-emails.ts'

// A notification's params are stored once and read in either language: yen and due dates are
// written the reader's way, due dates in Japan time.

const DUE = '2026-12-01T05:30:00.000Z'

test('amounts and due dates are written per language, dates in Japan time', () => {
  const params = {
    number: 'PR-000001',
    totalJpy: 12345,
    dueDate: DUE,
    reason: '2026-12-01T05:30:00.000Z is text here',
  }
  // (ICU writes the space before PM as a plain or a narrow no-break space, by version.)
  expect(notificationValues(params, 'en')).toEqual({
    number: 'PR-000001',
    totalJpy: 'JPY\u00a012,345',
    dueDate: expect.stringMatching(/^December 1, 2026 at 2:30\sPM$/),
    reason: '2026-12-01T05:30:00.000Z is text here',
  })
  expect(notificationValues(params, 'es')).toMatchObject({
    totalJpy: '12.345\u00a0JPY',
    dueDate: '1 de diciembre de 2026 a las 14:30',
  })
})

/** One notification's e-mail in each language, to a made-up reader of the given audience. */
function emailIn(
  notification: Pick<Parameters<typeof composeNotificationEmail>[0], 'audience' | 'type' | 'params' | 'url'>,
) {
  return (language: 'es' | 'en') =>
    composeNotificationEmail({
      ...notification,
      to: 'reader@example.com',
      name: 'Ana',
      language,
      shop: { name: 'Shop', address: { es: 'Osaka, Japón', en: 'Osaka, Japan' }, email: 'shop@example.com' },
    })
}

test('the quote-ready e-mail says the total and the due date in the customer’s language', () => {
  const email = emailIn({
    audience: 'customer',
    type: 'quote_ready',
    params: { number: 'PR-000001', invoice: '2026-000001', totalJpy: 8734, dueDate: DUE },
    url: 'http://localhost:3000/user-dashboard/requests/x',
  })
  expect(email('en').subject).toContain('JPY\u00a08,734')
  expect(email('en').text).toMatch(/December 1, 2026 at 2:30\sPM \(Japan time\)/)
  expect(email('es').subject).toContain('8.734\u00a0JPY')
  expect(email('es').text).toContain('antes del 1 de diciembre de 2026 a las 14:30 (hora de Japón)')
})

test('the new-shipment staff e-mail names the method and the country in the reader’s language', () => {
  const email = emailIn({
    audience: 'staff',
    type: 'new_shipment',
    params: { number: 'SH-000001', customer: 'Valeria', count: 2, method: 'express', country: 'MX' },
    url: 'http://localhost:3000/admin-dashboard/shipments/x',
  })
  expect(email('en').text).toContain('Items: 2, Express (EMS) to Mexico.')
  expect(email('es').text).toContain('Productos: 2, Exprés (EMS) a México.')
})

test('counts are written with the plural of each language, never "link(s)" (ADR 038)', () => {
  for (const [count, es, en] of [
    [1, '1 enlace por cotizar.', '1 link to quote.'],
    [3, '3 enlaces por cotizar.', '3 links to quote.'],
  ] as const) {
    const email = emailIn({
      audience: 'staff',
      type: 'new_request',
      params: { number: 'PR-000001', customer: 'Ana', count },
      url: 'https://shop.example/admin-dashboard/requests/1',
    })
    expect(email('es').text).toContain(es)
    expect(email('en').text).toContain(en)
  }
})

test('the packed e-mail asks to see the box’s photo only when one was taken (ADR 038)', () => {
  const packed = (params: Record<string, string | number>) =>
    emailIn({ audience: 'customer', type: 'shipment_packed', params, url: 'https://shop.example/s/1' })
  const withPhoto = packed({ number: 'SH-000001', totalJpy: 4840 })
  const without = packed({ number: 'SH-000001', totalJpy: 4840, variant: 'noPhoto' })
  expect(withPhoto('en').text).toContain('photo of the box')
  expect(withPhoto('es').text).toContain('foto de la caja')
  expect(without('en').text).not.toContain('photo')
  expect(without('es').text).not.toContain('foto')
  expect(without('en').text).toContain('See your shipping receipt')
})

test('a cancellation says who cancelled and why, in the reader’s language; no reason, no reason line', () => {
  const byStaff = emailIn({
    audience: 'customer',
    type: 'shipment_cancelled',
    params: { number: 'SH-000012', reason: 'La dirección no tiene número / The address has no number' },
    url: 'http://localhost:3000/user-dashboard/shipments/x',
  })
  expect(byStaff('en').subject).toContain('Our team cancelled your shipment SH-000012')
  expect(byStaff('en').text).toContain('Why: La dirección no tiene número / The address has no number')
  expect(byStaff('es').subject).toContain('Nuestro equipo canceló tu envío SH-000012')
  expect(byStaff('es').text).toContain('Motivo: La dirección no tiene número')
  expect(byStaff('es').html).toContain('Motivo: La dirección no tiene número')
  const byThemselves = emailIn({
    audience: 'customer',
    type: 'shipment_cancelled_by_you',
    params: { number: 'SH-000012' },
    url: 'http://localhost:3000/user-dashboard/shipments/x',
  })
  expect(byThemselves('en').subject).toContain('You cancelled shipment SH-000012')
  expect(byThemselves('en').text).not.toContain('reason')
  expect(byThemselves('es').text).not.toContain('motivo')
  // A request's quote that expired: cancelled by no one but the clock, and said so.
  const expired = emailIn({
    audience: 'customer',
    type: 'quote_expired',
    params: { number: 'PR-000007', invoice: '2026-000031', dueDate: DUE },
    url: 'http://localhost:3000/user-dashboard/requests/x',
  })
  expect(expired('en').text).toMatch(
    /automatically: quote 2026-000031 was not paid by December 1, 2026 at 2:30\sPM/,
  )
  expect(expired('es').text).toContain(
    'la cotización 2026-000031 no se pagó antes del 1 de diciembre de 2026 a las 14:30',
  )
})

test('the shipping-receipt e-mail adds the import estimate’s line in the reader’s language; none without an estimate (issue 30)', () => {
  const packed = (params: Record<string, string | number>) =>
    emailIn({
      audience: 'customer',
      type: 'shipment_packed',
      params: { number: 'SH-000001', totalJpy: 5400, ...params },
      url: 'http://localhost:3000/user-dashboard/shipments/x',
    })
  const email = packed({ importJpy: 1976, importCountry: 'CL', importCollector: 'customs' })
  expect(email('en').text).toContain(
    'Estimated taxes on arrival in Chile: JPY\u00a01,976 (collected by customs before delivery); an estimate, not charged by us.',
  )
  expect(email('es').text).toContain(
    'Impuestos estimados a la llegada en Chile: 1.976\u00a0JPY (los cobra la aduana antes de la entrega); es una estimación, no los cobramos nosotros.',
  )
  const carrier = packed({ importJpy: 2100, importCountry: 'ES', importCollector: 'carrier' })
  expect(carrier('en').text).toContain(
    'in Spain: JPY\u00a02,100 (collected by the post or the courier on delivery)',
  )
  expect(carrier('es').text).toContain(
    'en España: 2.100\u00a0JPY (los cobra el correo o el courier al entregar)',
  )
  // The quote-ready e-mail carries it the same way (the goods at the quoted prices).
  const quote = emailIn({
    audience: 'customer',
    type: 'quote_ready',
    params: {
      number: 'PR-000001',
      invoice: '2026-000001',
      totalJpy: 8734,
      dueDate: DUE,
      importJpy: 1184,
      importCountry: 'CL',
      importCollector: 'customs',
    },
    url: 'http://localhost:3000/user-dashboard/requests/x',
  })
  expect(quote('en').text).toContain('Estimated taxes on arrival in Chile: JPY\u00a01,184')
  expect(quote('es').text).toContain('Impuestos estimados a la llegada en Chile: 1.184\u00a0JPY')
  // No rule for the country (or a formal entry): the params carry nothing, the e-mail no line.
  for (const language of ['es', 'en'] as const) {
    expect(packed({})(language).text).not.toMatch(/Estimated taxes|Impuestos estimados/)
  }
})
