import type pg from 'pg'

/**
 * The shop at scale, for `npm run bench:orders`: customers (users rows), their purchase requests
 * with items and full histories, written by a few set-based INSERT … SELECT statements (seconds,
 * not minutes). Deterministic enough to compare runs (setseed); realistic where the queries care:
 *  - a skewed spread (the busiest customers have hundreds of requests, the median a handful);
 *  - statuses by age: the newest few hundred submitted or quoted, then paid and in progress, the
 *    rest of two years mostly completed, cancelled, expired or rejected;
 *  - 1–5 items a request, links to the store guide's shops with their real URL shapes (Amazon
 *    ASINs, Mercari item ids, Rakuten shop paths…), the host and store as submitRequest sets them;
 *  - each request's history in order_events (submit, quote, pay… as the machine allows), with
 *    version, quoted_at, paid_at and closed_at to match, and the customer's notifications of it
 *    (unread for the last two weeks: the header's count).
 */

const FIRST_NAMES = [
  'María',
  'José',
  'Juan',
  'Ana',
  'Luis',
  'Carlos',
  'Sofía',
  'Valentina',
  'Camila',
  'Mateo',
  'Santiago',
  'Diego',
  'Lucía',
  'Daniela',
  'Gabriela',
  'Andrés',
  'Fernanda',
  'Alejandro',
  'Isabella',
  'Sebastián',
  'Martina',
  'Javier',
  'Paula',
  'Ricardo',
  'Mariana',
  'Emilio',
  'Renata',
  'Tomás',
  'Ximena',
  'Héctor',
  'Natalia',
  'Rodrigo',
  'Verónica',
  'Pablo',
  'Elena',
  'Miguel',
  'Carmen',
  'Jorge',
  'Adriana',
  'Raúl',
  'Emily',
  'James',
  'Olivia',
  'Noah',
  'Emma',
  'Liam',
  'Ava',
  'Ethan',
  'Mia',
  'Lucas',
  'Chloe',
  'Yuki',
  'Hana',
  'Kenji',
  'Aiko',
  'Ren',
  'Sakura',
  'Haruto',
  'Mei',
  'João',
]

const LAST_NAMES = [
  'García',
  'Rodríguez',
  'Martínez',
  'Hernández',
  'López',
  'González',
  'Pérez',
  'Sánchez',
  'Ramírez',
  'Torres',
  'Flores',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Gutiérrez',
  'Ortiz',
  'Chávez',
  'Ruiz',
  'Jiménez',
  'Mendoza',
  'Vargas',
  'Castillo',
  'Romero',
  'Herrera',
  'Medina',
  'Aguilar',
  'Vega',
  'Castro',
  'Rojas',
  'Silva',
  'Navarro',
  'Salazar',
  'Fuentes',
  'Paredes',
  'Cárdenas',
  'Guerrero',
  'Muñoz',
  'Smith',
  'Johnson',
  'Brown',
  'Williams',
  'Miller',
  'Davis',
  'Wilson',
  'Taylor',
  'Tanaka',
  'Suzuki',
  'Sato',
  'Takahashi',
  'Watanabe',
  'Nakamura',
  'Kobayashi',
]

const EMAIL_DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'hotmail.com',
  'hotmail.com',
  'outlook.com',
  'yahoo.com.mx',
  'yahoo.com',
  'icloud.com',
  'live.com.ar',
  'proton.me',
  'correo.cl',
]

/** Short shop slugs for the marketplaces whose URLs name a seller. */
const SELLERS = [
  'book',
  'hobbyone',
  'amiami-shop',
  'toysanta',
  'kojima',
  'biccamera',
  'joshin',
  'edion',
  'animate-rakuten',
  'tower-records',
  'hmv-books',
  'figure-shop-k',
  'sakura-zakka',
  'shopjapan',
]

/** The share of each shop among items, and its URL shape (SQL over random() and `n`, 0–1e9). */
const SHOPS: { weight: number; url: string }[] = [
  { weight: 14, url: `'https://www.amazon.co.jp/dp/B0' || upper(substr(md5(n::text), 1, 8))` },
  {
    weight: 8,
    url: `'https://www.amazon.co.jp/' || (array['figure','manga-box','camera-lens','sneaker'])[1 + n % 4] || '/dp/B0' || upper(substr(md5(n::text), 3, 8)) || '/ref=sr_1_' || (n % 40)`,
  },
  { weight: 22, url: `'https://jp.mercari.com/item/m' || lpad((n * 97 % 100000000000)::text, 11, '0')` },
  {
    weight: 12,
    url: `'https://item.rakuten.co.jp/' || (array[${SELLERS.map((s) => `'${s}'`).join(',')}])[1 + n % ${SELLERS.length}] || '/' || (n % 9000000 + 1000000) || '/'`,
  },
  {
    weight: 9,
    url: `'https://page.auctions.yahoo.co.jp/jp/auction/' || (array['x','w','v','n','o'])[1 + n % 5] || (n % 900000000 + 100000000)`,
  },
  {
    weight: 5,
    url: `'https://store.shopping.yahoo.co.jp/' || (array[${SELLERS.map((s) => `'${s}'`).join(',')}])[1 + n % ${SELLERS.length}] || '/' || lower(substr(md5(n::text), 1, 10)) || '.html'`,
  },
  { weight: 5, url: `'https://www.suruga-ya.jp/product/detail/' || (n % 900000000 + 100000000)` },
  {
    weight: 3,
    url: `'https://www.animate-onlineshop.jp/products/detail.php?product_id=' || (n % 3000000 + 1000000)`,
  },
  {
    weight: 4,
    url: `'https://www.amiami.jp/top/detail/detail?gcode=FIGURE-' || lpad((n % 180000)::text, 6, '0')`,
  },
  {
    weight: 3,
    url: `'https://order.mandarake.co.jp/order/detailPage/item?itemCode=' || (n % 9000000000 + 1000000000)`,
  },
  { weight: 2, url: `'https://p-bandai.jp/item/item-1000' || lpad((n % 200000)::text, 6, '0') || '/'` },
  { weight: 2, url: `'https://www.pokemoncenter-online.com/' || (n % 900000 + 4521329000000) || '.html'` },
  {
    weight: 2,
    url: `'https://zozo.jp/shop/' || (array['beams','urbanresearch','nanouniverse','journalstandard'])[1 + n % 4] || '/goods/' || (n % 90000000 + 10000000) || '/'`,
  },
  { weight: 2, url: `'https://www.uniqlo.com/jp/ja/products/E' || (n % 900000 + 100000) || '-000/00'` },
  { weight: 2, url: `'https://www.1999.co.jp/' || (n % 90000000 + 10000000)` },
  { weight: 1, url: `'https://shop.sanrio.co.jp/item/detail/' || (n % 900000 + 100000)` },
  { weight: 1, url: `'https://chiikawamarket.jp/products/' || (n % 900000000000 + 4580000000000)` },
  { weight: 1, url: `'https://www.goodsmile.com/ja/product/' || (n % 90000 + 10000)` },
  { weight: 1, url: `'https://www.muji.com/jp/ja/store/cmdty/detail/4550' || (n % 900000000 + 100000000)` },
  { weight: 1, url: `'https://www.cosme.com/products/detail.php?product_id=' || (n % 9000000 + 100000)` },
]

const ITEM_NOTES = [
  'Talla M',
  'Color negro, por favor',
  'Size L',
  'Si no hay, no importa',
  'Versión japonesa',
]

/** A SQL array literal of text. */
function textArray(values: readonly string[]) {
  return `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]`
}

/** CASE over r (0–1) picking a shop's URL by weight. */
function shopUrlCase() {
  const total = SHOPS.reduce((sum, shop) => sum + shop.weight, 0)
  let cumulative = 0
  const arms = SHOPS.map((shop) => {
    cumulative += shop.weight
    return `WHEN r_shop < ${(cumulative / total).toFixed(6)} THEN ${shop.url}`
  })
  return `CASE ${arms.join('\n    ')} ELSE 'https://www.amazon.co.jp/dp/B0000000' END`
}

/** The machine's paths to each status (cancelled two ways), with offsets after submission. */
const HISTORY = `
  (VALUES
    ('submitted',   0, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('quoted',      1, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('quoted',      1, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('rejected',    1, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('rejected',    1, 2, 'reject',           'submitted',  'rejected',    'staff',    interval '20 hours'),
    ('cancelled',   1, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('cancelled',   1, 2, 'cancel',           'submitted',  'cancelled',   'customer', interval '2 hours'),
    ('cancelled',   2, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('cancelled',   2, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('cancelled',   2, 3, 'cancel',           'quoted',     'cancelled',   'customer', interval '2 days'),
    ('paid',        2, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('paid',        2, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('paid',        2, 3, 'pay',              'quoted',     'paid',        'provider', interval '30 hours'),
    ('expired',     2, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('expired',     2, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('expired',     2, 3, 'expire',           'quoted',     'expired',     'system',   interval '8 days'),
    ('in_progress', 3, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('in_progress', 3, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('in_progress', 3, 3, 'pay',              'quoted',     'paid',        'provider', interval '30 hours'),
    ('in_progress', 3, 4, 'start_purchasing', 'paid',       'in_progress', 'staff',    interval '2 days'),
    ('completed',   4, 1, 'submit',           NULL,         'submitted',   'customer', interval '0'),
    ('completed',   4, 2, 'quote',            'submitted',  'quoted',      'staff',    interval '20 hours'),
    ('completed',   4, 3, 'pay',              'quoted',     'paid',        'provider', interval '30 hours'),
    ('completed',   4, 4, 'start_purchasing', 'paid',       'in_progress', 'staff',    interval '2 days'),
    ('completed',   4, 5, 'complete',         'in_progress','completed',   'staff',    interval '9 days')
  ) AS history(status, version, step, event, from_status, to_status, actor_kind, after)`

export type OrdersSeedOptions = { customers: number; requests: number; staffId: string }

export type OrdersSeedReport = {
  users: number
  requests: number
  items: number
  events: number
  notifications: number
}

/** Writes the customers, requests, items and histories; ANALYZE after. Times are the caller's. */
export async function seedOrders(
  client: pg.Pool | pg.Client,
  { customers, requests, staffId }: OrdersSeedOptions,
): Promise<OrdersSeedReport> {
  await client.query('SELECT setseed(0.2024)')

  // Customers: "Nombre Apellido", e-mails from the name (accents dropped), joined over 3 years.
  await client.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role, language)
     SELECT 'bench-user-' || g,
            first || ' ' || last,
            translate(lower(first || '.' || last), 'áéíóúñüã', 'aeiounua') || g || '@' || domain,
            true, joined, joined, 'user', CASE WHEN g % 5 = 0 THEN 'en' ELSE 'es' END
     FROM (
       SELECT g,
              (${textArray(FIRST_NAMES)})[1 + floor(random() * ${FIRST_NAMES.length})::int] AS first,
              (${textArray(LAST_NAMES)})[1 + floor(random() * ${LAST_NAMES.length})::int] AS last,
              (${textArray(EMAIL_DOMAINS)})[1 + floor(random() * ${EMAIL_DOMAINS.length})::int] AS domain,
              now() - interval '3 years' * random() AS joined
       FROM generate_series(1, $1::int) g
     ) named`,
    [customers],
  )

  // Requests, oldest first so their numbers grow with time. The customer is skewed (u^1.8: the
  // busiest have hundreds); submitted_at leans recent (a growing shop, ~200 a day lately).
  await client.query(
    `INSERT INTO purchase_requests (user_id, status, customer_note, locale, submitted_at, quoted_at,
       quote_expires_at, paid_at, closed_at, version, created_at, updated_at)
     SELECT user_id, status, note, locale, at,
            CASE WHEN version >= 1 AND status NOT IN ('rejected', 'cancelled') OR version >= 2 THEN at + interval '20 hours' END,
            CASE WHEN version >= 1 AND status NOT IN ('rejected', 'cancelled') OR version >= 2 THEN at + interval '20 hours' + interval '7 days' END,
            CASE WHEN status IN ('paid', 'in_progress', 'completed') THEN at + interval '30 hours' END,
            CASE status
              WHEN 'rejected' THEN at + interval '20 hours'
              WHEN 'cancelled' THEN at + CASE version WHEN 1 THEN interval '2 hours' ELSE interval '2 days' END
              WHEN 'expired' THEN at + interval '8 days'
              WHEN 'completed' THEN at + interval '9 days'
            END,
            version, at, at
     FROM (
       SELECT *,
              CASE status
                WHEN 'submitted' THEN 0 WHEN 'quoted' THEN 1 WHEN 'rejected' THEN 1
                WHEN 'cancelled' THEN CASE WHEN r2 < 0.5 THEN 1 ELSE 2 END
                WHEN 'paid' THEN 2 WHEN 'expired' THEN 2 WHEN 'in_progress' THEN 3 ELSE 4
              END AS version
       FROM (
         SELECT *,
                CASE
                  WHEN age_rank <= 300 THEN CASE WHEN r < 0.9 THEN 'submitted' ELSE 'cancelled' END
                  WHEN age_rank <= 650 THEN CASE WHEN r < 0.7 THEN 'quoted' WHEN r < 0.85 THEN 'paid' WHEN r < 0.95 THEN 'cancelled' ELSE 'rejected' END
                  WHEN age_rank <= 2500 THEN CASE WHEN r < 0.5 THEN 'in_progress' WHEN r < 0.7 THEN 'paid' WHEN r < 0.82 THEN 'completed' WHEN r < 0.92 THEN 'cancelled' WHEN r < 0.97 THEN 'expired' ELSE 'rejected' END
                  ELSE CASE WHEN r < 0.72 THEN 'completed' WHEN r < 0.86 THEN 'cancelled' WHEN r < 0.95 THEN 'expired' ELSE 'rejected' END
                END AS status
         FROM (
           SELECT *, row_number() OVER (ORDER BY at DESC) AS age_rank
           FROM (
             SELECT 'bench-user-' || (1 + floor($1::int * power(random(), 1.8)))::int AS user_id,
                    date_trunc('milliseconds', now() - interval '730 days' * power(random(), 1.1)) AS at,
                    random() AS r, random() AS r2,
                    CASE WHEN random() < 0.8 THEN 'es' ELSE 'en' END AS locale,
                    CASE WHEN random() < 0.1 THEN 'Por favor revisen que sea original.' END AS note
             FROM generate_series(1, $2::int)
           ) raw
         ) ranked
       ) statused
     ) versioned
     ORDER BY at`,
    [customers, requests],
  )

  // Items: 1–5 a request (45/25/15/9/6 %), links by shop share, the host as shopHostOf reads it.
  await client.query(
    `INSERT INTO request_items (request_id, position, url, shop_host, quantity, notes, status, title,
       unit_price_jpy, domestic_shipping_jpy, created_at, updated_at)
     SELECT id, position, url,
            regexp_replace(lower(substring(url from '^https?://([^/:?#]+)')), '^www\\.', ''),
            quantity, note,
            CASE status
              WHEN 'submitted' THEN 'pending' WHEN 'quoted' THEN 'quoted' WHEN 'rejected' THEN 'rejected'
              WHEN 'cancelled' THEN 'cancelled' WHEN 'paid' THEN 'to_buy' WHEN 'expired' THEN 'quoted'
              WHEN 'in_progress' THEN 'ordered' ELSE 'received'
            END,
            CASE WHEN status <> 'submitted' AND status <> 'rejected' THEN 'Artículo ' || n % 100000 END,
            CASE WHEN status <> 'submitted' AND status <> 'rejected' THEN 300 + n % 30000 END,
            CASE WHEN status <> 'submitted' AND status <> 'rejected' THEN (n % 13) * 100 END,
            submitted_at, submitted_at
     FROM (
       SELECT *, ${shopUrlCase()} AS url
       FROM (
         SELECT p.id, p.status, p.submitted_at, position,
                random() AS r_shop,
                floor(random() * 1e9)::bigint AS n,
                CASE WHEN random() < 0.75 THEN 1 ELSE 2 + floor(random() * random() * 9)::int END AS quantity,
                CASE WHEN random() < 0.08 THEN (${textArray(ITEM_NOTES)})[1 + floor(random() * ${ITEM_NOTES.length})::int] END AS note
         FROM (
           SELECT id, status, submitted_at, random() AS r FROM purchase_requests
         ) p
         CROSS JOIN LATERAL generate_series(1,
           CASE WHEN p.r < 0.45 THEN 1 WHEN p.r < 0.70 THEN 2 WHEN p.r < 0.85 THEN 3 WHEN p.r < 0.94 THEN 4 ELSE 5 END
         ) AS position
       ) drawn
     ) linked`,
  )

  // The store-guide shop of each host, matched as submitRequest's storeIdsByHost does.
  await client.query(
    `UPDATE request_items i SET store_id = known.id
     FROM (
       SELECT DISTINCT ON (hosts.shop_host) hosts.shop_host, s.id
       FROM (SELECT DISTINCT shop_host FROM request_items) hosts
       JOIN (
         SELECT id, regexp_replace(lower(substring(url from '^https?://([^/:?#]+)')), '^www\\.', '') AS host
         FROM stores
       ) s ON hosts.shop_host = s.host OR hosts.shop_host LIKE '%.' || s.host
       ORDER BY hosts.shop_host, s.id
     ) known
     WHERE i.shop_host = known.shop_host`,
  )

  // Histories: the machine's path to each request's status, in order.
  await client.query(
    `INSERT INTO order_events (entity_type, entity_id, event, from_status, to_status, actor_kind,
       actor_id, created_at)
     SELECT 'purchase_request', p.id, history.event, history.from_status, history.to_status,
            history.actor_kind,
            CASE history.actor_kind WHEN 'customer' THEN p.user_id WHEN 'staff' THEN $1 END,
            p.submitted_at + history.after
     FROM purchase_requests p
     JOIN ${HISTORY} ON history.status = p.status AND history.version = p.version
     ORDER BY p.submitted_at, history.step`,
    [staffId],
  )

  // What each customer was told (notifyCustomer's rows): read, but for the last two weeks'.
  await client.query(
    `INSERT INTO notifications (user_id, tone, type, params, link, request_id, read_at, created_at)
     SELECT p.user_id, told.tone, told.type, jsonb_build_object('number', p.number),
            '/user-dashboard/requests/' || p.id, p.id,
            CASE WHEN e.created_at < now() - interval '14 days' THEN e.created_at + interval '1 day' END,
            e.created_at
     FROM order_events e
     JOIN purchase_requests p ON p.id = e.entity_id
     JOIN (VALUES ('submit', 'request_received', 'info'), ('quote', 'quote_ready', 'success'),
                  ('reject', 'request_rejected', 'warning'), ('pay', 'payment_received', 'success'),
                  ('expire', 'quote_expired', 'warning')) AS told(event, type, tone)
       ON told.event = e.event
     ORDER BY e.id`,
  )

  await client.query('VACUUM ANALYZE users, purchase_requests, request_items, order_events, notifications')
  const { rows } = await client.query<OrdersSeedReport>(
    `SELECT (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM purchase_requests) AS requests,
            (SELECT count(*)::int FROM request_items) AS items,
            (SELECT count(*)::int FROM order_events) AS events,
            (SELECT count(*)::int FROM notifications) AS notifications`,
  )
  return rows[0] as OrdersSeedReport
}
