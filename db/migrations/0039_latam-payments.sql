ALTER TABLE "payments" DROP CONSTRAINT "payments_provider_check";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "local_currency" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "local_amount" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fx_rate" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "voucher_reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "voucher_barcode" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "voucher_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_local_check" CHECK (("payments"."local_currency" is null and "payments"."local_amount" is null) or ("payments"."local_currency" ~ '^[A-Z]{3}$' and "payments"."local_amount" > 0));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('manual', 'paypal', 'stripe', 'balance', 'dlocal'));--> statement-breakpoint
-- A payment's local amount and currency, once quoted, are fixed too (docs/decisions/051).
CREATE OR REPLACE FUNCTION payments_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.invoice_id, NEW.provider, NEW.requested_jpy) IS DISTINCT FROM (OLD.invoice_id, OLD.provider, OLD.requested_jpy)
     OR (OLD.provider_ref IS NOT NULL AND NEW.provider_ref IS DISTINCT FROM OLD.provider_ref)
     OR (OLD.capture_ref IS NOT NULL AND NEW.capture_ref IS DISTINCT FROM OLD.capture_ref)
     OR (OLD.amount IS NOT NULL AND NEW.amount IS DISTINCT FROM OLD.amount)
     OR (OLD.local_amount IS NOT NULL AND (NEW.local_amount, NEW.local_currency, NEW.fx_rate) IS DISTINCT FROM (OLD.local_amount, OLD.local_currency, OLD.fx_rate)) THEN
    RAISE EXCEPTION 'payment %: recorded facts never change', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
