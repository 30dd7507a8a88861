ALTER TABLE "payments" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunding_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD COLUMN "submission_key" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_requests_submission_key" ON "purchase_requests" USING btree ("user_id","submission_key") WHERE "purchase_requests"."submission_key" is not null;--> statement-breakpoint
-- Hand-written. Never more given back on a payment than is due on it: each `done` row waits for
-- the payment's row lock, then counts what is due and done (a refund by hand and one through the
-- provider at the same moment: the second is refused here even if the code let it through).
CREATE FUNCTION refunds_within_due() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due_jpy bigint;
  done_jpy bigint;
BEGIN
  IF NEW.status <> 'done' THEN
    RETURN NEW;
  END IF;
  PERFORM 1 FROM payments WHERE id = NEW.payment_id FOR UPDATE;
  SELECT coalesce(sum(amount_jpy) FILTER (WHERE status = 'due'), 0),
         coalesce(sum(amount_jpy) FILTER (WHERE status = 'done'), 0)
    INTO due_jpy, done_jpy
    FROM refunds WHERE payment_id = NEW.payment_id;
  IF done_jpy + NEW.amount_jpy > due_jpy THEN
    RAISE EXCEPTION 'payment %: refunds done (% + %) would exceed what is due (%)',
      NEW.payment_id, done_jpy, NEW.amount_jpy, due_jpy
      USING ERRCODE = 'check_violation', CONSTRAINT = 'refunds_within_due';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER refunds_done_within_due BEFORE INSERT ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION refunds_within_due();
