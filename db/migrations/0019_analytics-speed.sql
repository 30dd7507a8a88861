CREATE TABLE "request_shop_days" (
	"day" date NOT NULL,
	"shop_host" text NOT NULL,
	"store_id" integer,
	"requests" integer NOT NULL,
	CONSTRAINT "request_shop_days_day_shop_host_pk" PRIMARY KEY("day","shop_host")
);
--> statement-breakpoint
CREATE INDEX "invoices_purchase_issued_idx" ON "invoices" USING btree ("issued_at","status") WHERE "invoices"."kind" = 'purchase';--> statement-breakpoint
CREATE INDEX "invoices_purchase_paid_idx" ON "invoices" USING btree ("paid_at","total_jpy","items_jpy","service_fee_jpy","domestic_shipping_jpy","tax_jpy") WHERE "invoices"."kind" = 'purchase' and "invoices"."status" = 'paid';--> statement-breakpoint
-- The user search (docs/decisions/024): estimates from every row, not a sample, so the planner does
-- not flip between the trigram bitmap and a walk of the newest-first index from one ANALYZE to the next.
ALTER INDEX "users_name_search_idx" ALTER COLUMN 1 SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" SET STATISTICS 1000;--> statement-breakpoint
-- request_shop_days (db/schema/analytics.ts): the given Japan days recomputed from the requests and
-- their items. One transaction at a time per day (an advisory lock, taken in day order), and each
-- statement below sees what the one before it committed: two submissions on one day both count.
CREATE FUNCTION refresh_request_shop_days(days date[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
BEGIN
  FOR d IN SELECT DISTINCT x FROM unnest(days) AS x WHERE x IS NOT NULL ORDER BY x LOOP
    PERFORM pg_advisory_xact_lock(hashtext('request_shop_days'), d - date '2000-01-01');
    DELETE FROM request_shop_days WHERE day = d;
    INSERT INTO request_shop_days (day, shop_host, store_id, requests)
      SELECT d, ri.shop_host, max(ri.store_id), count(DISTINCT ri.request_id)
        FROM purchase_requests pr
        JOIN request_items ri ON ri.request_id = pr.id
       WHERE pr.submitted_at >= (d::timestamp AT TIME ZONE 'Asia/Tokyo')
         AND pr.submitted_at < ((d + 1)::timestamp AT TIME ZONE 'Asia/Tokyo')
       GROUP BY ri.shop_host;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE FUNCTION request_items_shop_days() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg((pr.submitted_at AT TIME ZONE 'Asia/Tokyo')::date) INTO days
      FROM purchase_requests pr WHERE pr.id IN (SELECT request_id FROM new_items);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg((pr.submitted_at AT TIME ZONE 'Asia/Tokyo')::date) INTO days
      FROM purchase_requests pr WHERE pr.id IN (SELECT request_id FROM old_items);
  ELSE
    SELECT array_agg((pr.submitted_at AT TIME ZONE 'Asia/Tokyo')::date) INTO days
      FROM purchase_requests pr
     WHERE pr.id IN (SELECT request_id FROM new_items UNION SELECT request_id FROM old_items);
  END IF;
  IF days IS NOT NULL THEN
    PERFORM refresh_request_shop_days(days);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER request_items_shop_days_insert AFTER INSERT ON request_items
  REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION request_items_shop_days();--> statement-breakpoint
CREATE TRIGGER request_items_shop_days_update AFTER UPDATE ON request_items
  REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION request_items_shop_days();--> statement-breakpoint
CREATE TRIGGER request_items_shop_days_delete AFTER DELETE ON request_items
  REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION request_items_shop_days();--> statement-breakpoint
-- A request deleted (with its account) takes its items along: its days are recomputed without it.
CREATE FUNCTION purchase_requests_shop_days() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  days date[];
BEGIN
  SELECT array_agg((submitted_at AT TIME ZONE 'Asia/Tokyo')::date) INTO days FROM old_requests;
  IF days IS NOT NULL THEN
    PERFORM refresh_request_shop_days(days);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER purchase_requests_shop_days_delete AFTER DELETE ON purchase_requests
  REFERENCING OLD TABLE AS old_requests FOR EACH STATEMENT EXECUTE FUNCTION purchase_requests_shop_days();--> statement-breakpoint
SELECT refresh_request_shop_days(array_agg(DISTINCT (submitted_at AT TIME ZONE 'Asia/Tokyo')::date)) FROM purchase_requests;
