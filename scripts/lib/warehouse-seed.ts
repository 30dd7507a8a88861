import type pg from 'pg'

/**
 * The warehouse at scale, for `npm run bench:orders` (issue #11): after scripts/lib/orders-seed.ts,
 * `perCustomer` items of every customer booked in at the office (one more for some, to make
 * `total`: 50,000 for the default 10,000 customers; one package each, 100 to 1,000 g, arrived in
 * the last 40 days), an
 * address for each customer, and a shipment request holding two stored items for `shipmentShare`
 * of the customers (reserved, as the service does). Set-based statements, then ANALYZE.
 */
export async function seedWarehouse(
  pool: pg.Pool,
  {
    perCustomer = 5,
    total = 50_000,
    shipmentShare = 0.2,
  }: { perCustomer?: number; total?: number; shipmentShare?: number } = {},
) {
  await pool.query('SELECT setseed(0.27)')
  await pool.query(
    `
    CREATE TEMP TABLE bench_stored AS
    SELECT item_id, user_id, gen_random_uuid() AS package_id, rank,
           now() - (random() * 40) * interval '1 day' AS arrived,
           100 + floor(random() * 900)::int AS grams
      FROM (SELECT i.id AS item_id, r.user_id,
                   row_number() OVER (PARTITION BY r.user_id ORDER BY r.submitted_at DESC, i.position) AS rank
              FROM request_items i JOIN purchase_requests r ON r.id = i.request_id) ranked
     WHERE rank <= $1 + 1
     ORDER BY rank, item_id
     LIMIT $2`,
    [perCustomer, total],
  )
  await pool.query(`
    INSERT INTO packages (id, user_id, shelf, arrived_at)
    SELECT package_id, user_id, 'A-' || (rank % 9 + 1), arrived FROM bench_stored`)
  const stored = await pool.query(`
    UPDATE request_items i
       SET status = 'received', package_id = s.package_id, weight_grams = s.grams, received_at = s.arrived
      FROM bench_stored s WHERE i.id = s.item_id`)
  await pool.query(`
    INSERT INTO addresses (user_id, full_name, street, city, region, postal_code, country, phone, is_default)
    SELECT id, coalesce(nullif(name, ''), 'Cliente'), 'Av. Siempre Viva 742', 'Lima', 'Lima', '15001',
           (ARRAY['PE','MX','CL','CO','ES','US'])[1 + floor(random() * 6)::int], '+51 1 234 5678', true
      FROM users WHERE role = 'user'`)
  await pool.query(
    `CREATE TEMP TABLE bench_shipping AS
     SELECT user_id, gen_random_uuid() AS shipment_id, now() - (random() * 10) * interval '1 day' AS asked
       FROM (SELECT DISTINCT user_id FROM bench_stored) customers
      WHERE random() < $1`,
    [shipmentShare],
  )
  const shipments = await pool.query(`
    INSERT INTO shipments (id, user_id, status, method, address, country, region, route,
                           estimated_weight_g, estimated_price_jpy, locale, requested_at)
    SELECT shipment_id, user_id, (ARRAY['requested','requested','requested','cancelled'])[1 + floor(random() * 4)::int],
           'economic',
           '{"fullName":"Cliente","street":"Av. Siempre Viva 742","city":"Lima","region":"Lima","postalCode":"15001","country":"PE","phone":"+51 1 234 5678"}'::jsonb,
           'PE', 'central_south_america', 'direct', 1200, 4800, 'es', asked
      FROM bench_shipping`)
  await pool.query(`
    INSERT INTO shipment_items (shipment_id, item_id, active)
    SELECT b.shipment_id, s.item_id, sh.status = 'requested'
      FROM bench_shipping b
      JOIN bench_stored s ON s.user_id = b.user_id AND s.rank <= 2
      JOIN shipments sh ON sh.id = b.shipment_id`)
  await pool.query(`
    UPDATE request_items i SET reserved_at = sh.requested_at
      FROM shipment_items si JOIN shipments sh ON sh.id = si.shipment_id
     WHERE si.item_id = i.id AND si.active`)
  await pool.query('DROP TABLE bench_stored, bench_shipping')
  await pool.query('ANALYZE packages, request_items, addresses, shipments, shipment_items')
  return { stored: stored.rowCount ?? 0, shipments: shipments.rowCount ?? 0 }
}
