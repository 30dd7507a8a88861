-- Hand-written. Requests that were already over before they could complete
-- (docs/decisions/034): paid or being worked on, every item at its end (unavailable, disposed of,
-- rejected, cancelled, or shipped in a shipment delivered or lost), nothing due back that was not
-- sent, no payment held for review. They move to `completed` as the code would have moved them,
-- each with its history row (by the system, cause `backfill`); the customer is not told again of
-- something long over.
WITH finished AS (
  SELECT r.id, r.status
    FROM purchase_requests r
   WHERE r.status IN ('paid', 'in_progress')
     AND EXISTS (SELECT 1 FROM request_items i WHERE i.request_id = r.id)
     AND NOT EXISTS (
       SELECT 1
         FROM request_items i
         LEFT JOIN shipment_items si ON si.item_id = i.id AND si.active
         LEFT JOIN shipments s ON s.id = si.shipment_id
        WHERE i.request_id = r.id
          AND NOT (
            i.status IN ('unavailable', 'disposed', 'rejected', 'cancelled')
            OR (i.status = 'shipped' AND s.status IN ('delivered', 'lost'))
          )
     )
     AND NOT EXISTS (
       SELECT 1
         FROM payments p JOIN invoices v ON v.id = p.invoice_id
        WHERE v.request_id = r.id AND p.status = 'held'
     )
     AND (
       SELECT coalesce(sum(CASE WHEN f.status = 'due' THEN f.amount_jpy ELSE -f.amount_jpy END), 0)
         FROM refunds f
         JOIN payments p ON p.id = f.payment_id
         JOIN invoices v ON v.id = p.invoice_id
        WHERE v.request_id = r.id
     ) <= 0
   FOR UPDATE OF r
),
history AS (
  INSERT INTO order_events (entity_type, entity_id, event, from_status, to_status, actor_kind, data, visible_to_customer)
  SELECT 'purchase_request', id, 'complete', status, 'completed', 'system', '{"cause":"backfill"}'::jsonb, true
    FROM finished
)
UPDATE purchase_requests r
   SET status = 'completed', closed_at = now(), version = r.version + 1, updated_at = now()
  FROM finished
 WHERE r.id = finished.id;
