import type pg from 'pg'

/**
 * A quoted request with its open invoice, written straight into a database (the db tests' own,
 * or the e2e server's) as the quotes slice issues one: the request `quoted` with its history
 * row, its items priced and `quoted`, the invoice `open` with frozen lines and the next number
 * of the year from `invoice_counters`. For payment tests that should not go through quoting.
 *
 * Amounts as core/pricing prices them: each item's price × quantity and the service fee ×
 * quantity are taxed (10 %, rounded down); domestic shipping is at cost, untaxed.
 */

/** What both pg.Pool and pg.Client offer. */
type Queryable = Pick<pg.Pool | pg.Client, 'query'>

export type QuotedItem = {
  url?: string
  unitPriceJpy: number
  quantity?: number
  domesticShippingJpy?: number
}

export type QuotedRequest = {
  requestId: string
  requestNumber: string
  invoiceId: string
  invoiceNumber: string
  totalJpy: number
  itemIds: string[]
}

const SERVICE_FEE_JPY = 500

export async function insertQuotedRequest(
  db: Queryable,
  {
    userId,
    items = [{ unitPriceJpy: 2500, quantity: 2, domesticShippingJpy: 800 }],
    locale = 'es',
    dueInDays = 7,
    at = null,
  }: {
    userId: string
    items?: QuotedItem[]
    locale?: 'es' | 'en'
    dueInDays?: number
    /** When it was sent and quoted (both at once); now by default. */
    at?: Date | null
  },
): Promise<QuotedRequest> {
  const one = async (text: string, params: unknown[]) => {
    const { rows } = await db.query(text, params)
    if (!rows[0]) throw new Error(`no row from: ${text}`)
    return rows[0]
  }
  const request = await one(
    `INSERT INTO purchase_requests (user_id, status, locale, submitted_at, quoted_at, quote_expires_at)
     VALUES ($1, 'quoted', $2, coalesce($4, now()), coalesce($4, now()),
       coalesce($4, now()) + make_interval(days => $3)) RETURNING id, number`,
    [userId, locale, dueInDays, at],
  )
  const requestId = String(request.id)
  await db.query(
    `INSERT INTO order_events (entity_type, entity_id, event, from_status, to_status, actor_kind)
     VALUES ('purchase_request', $1, 'submit', null, 'submitted', 'customer'),
            ('purchase_request', $1, 'quote', 'submitted', 'quoted', 'staff')`,
    [requestId],
  )
  const itemIds: string[] = []
  let itemsJpy = 0
  let shippingJpy = 0
  let feeJpy = 0
  for (const [index, item] of items.entries()) {
    const quantity = item.quantity ?? 1
    const row = await one(
      `INSERT INTO request_items (request_id, position, url, shop_host, quantity, status, title, unit_price_jpy, domestic_shipping_jpy)
       VALUES ($1, $2, $3, $8, $4, 'quoted', $5, $6, $7) RETURNING id`,
      [
        requestId,
        index + 1,
        item.url ?? `https://jp.mercari.com/item/m${index + 1}`,
        quantity,
        `Item ${index + 1}`,
        item.unitPriceJpy,
        item.domesticShippingJpy ?? 0,
        new URL(item.url ?? 'https://jp.mercari.com/').hostname.replace(/^www\./, ''),
      ],
    )
    itemIds.push(String(row.id))
    itemsJpy += item.unitPriceJpy * quantity
    shippingJpy += item.domesticShippingJpy ?? 0
    feeJpy += SERVICE_FEE_JPY * quantity
  }
  const taxJpy = Math.floor((itemsJpy + feeJpy) / 10)
  const totalJpy = itemsJpy + shippingJpy + feeJpy + taxJpy
  const year = new Date().getFullYear()
  const counter = await one(
    `INSERT INTO invoice_counters (year, last_number) VALUES ($1, 1)
     ON CONFLICT (year) DO UPDATE SET last_number = invoice_counters.last_number + 1 RETURNING last_number`,
    [year],
  )
  const sequence = Number(counter.last_number)
  const invoiceNumber = `${year}-${String(sequence).padStart(6, '0')}`
  const user = await one('SELECT name, email FROM users WHERE id = $1', [userId])
  const invoice = await one(
    `INSERT INTO invoices (number, year, sequence, request_id, user_id, locale, recipient, issuer,
       tax_rate_basis_points, service_fee_unit_jpy, yen_rates, items_jpy, domestic_shipping_jpy,
       service_fee_jpy, taxable_jpy, tax_jpy, total_jpy, due_at, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1000, $9, $10, $11, $12, $13, $14, $15, $16,
       coalesce($18, now()) + make_interval(days => $17), coalesce($18, now())) RETURNING id`,
    [
      invoiceNumber,
      year,
      sequence,
      requestId,
      userId,
      locale,
      JSON.stringify({ name: user.name, email: user.email }),
      JSON.stringify({
        name: 'Demo Proxy Shopping Japan',
        address: 'Osaka, Japan',
        email: 'hello@example.com',
        taxRegistrationId: 'T0000000000000',
      }),
      SERVICE_FEE_JPY,
      JSON.stringify({ USD: 0.0068, MXN: 0.13, CLP: 6.54 }),
      itemsJpy,
      shippingJpy,
      feeJpy,
      itemsJpy + feeJpy,
      taxJpy,
      totalJpy,
      dueInDays,
      at,
    ],
  )
  const invoiceId = String(invoice.id)
  let position = 0
  for (const [index, item] of items.entries()) {
    const quantity = item.quantity ?? 1
    const lines: [string, number, number, boolean][] = [
      ['item', quantity, item.unitPriceJpy, true],
      ['service_fee', quantity, SERVICE_FEE_JPY, true],
    ]
    if (item.domesticShippingJpy) lines.push(['domestic_shipping', 1, item.domesticShippingJpy, false])
    for (const [kind, lineQuantity, unit, taxable] of lines) {
      position += 1
      await db.query(
        `INSERT INTO invoice_lines (invoice_id, position, kind, item_id, description, quantity, unit_price_jpy, amount_jpy, taxable)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          invoiceId,
          position,
          kind,
          itemIds[index],
          `Item ${index + 1}`,
          lineQuantity,
          unit,
          unit * lineQuantity,
          taxable,
        ],
      )
    }
  }
  await db.query(
    `INSERT INTO order_events (entity_type, entity_id, event, from_status, to_status, actor_kind)
     VALUES ('invoice', $1, 'issue', null, 'open', 'staff')`,
    [invoiceId],
  )
  return { requestId, requestNumber: String(request.number), invoiceId, invoiceNumber, totalJpy, itemIds }
}
