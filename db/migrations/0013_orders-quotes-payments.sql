CREATE TABLE "invoice_counters" (
	"year" smallint PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "invoice_counters_last_check" CHECK ("invoice_counters"."last_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_jpy" bigint NOT NULL,
	"amount_jpy" bigint NOT NULL,
	"taxable" boolean NOT NULL,
	CONSTRAINT "invoice_lines_position_key" UNIQUE("invoice_id","position"),
	CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('item', 'domestic_shipping', 'service_fee', 'shipping')),
	CONSTRAINT "invoice_lines_amount_check" CHECK ("invoice_lines"."amount_jpy" = "invoice_lines"."unit_price_jpy" * "invoice_lines"."quantity"),
	CONSTRAINT "invoice_lines_quantity_check" CHECK ("invoice_lines"."quantity" >= 1),
	CONSTRAINT "invoice_lines_unit_check" CHECK ("invoice_lines"."unit_price_jpy" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"year" smallint NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text DEFAULT 'purchase' NOT NULL,
	"request_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"locale" text NOT NULL,
	"recipient" jsonb NOT NULL,
	"issuer" jsonb NOT NULL,
	"tax_rate_basis_points" integer NOT NULL,
	"service_fee_unit_jpy" integer NOT NULL,
	"yen_rates" jsonb NOT NULL,
	"items_jpy" bigint NOT NULL,
	"domestic_shipping_jpy" bigint NOT NULL,
	"service_fee_jpy" bigint NOT NULL,
	"taxable_jpy" bigint NOT NULL,
	"tax_jpy" bigint NOT NULL,
	"total_jpy" bigint NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"replaces_invoice_id" uuid,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_year_sequence_key" UNIQUE("year","sequence"),
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('purchase', 'shipping')),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('open', 'paid', 'void', 'expired')),
	CONSTRAINT "invoices_locale_check" CHECK ("invoices"."locale" in ('es', 'en')),
	CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."items_jpy" >= 0 and "invoices"."domestic_shipping_jpy" >= 0 and "invoices"."service_fee_jpy" >= 0 and "invoices"."tax_jpy" >= 0 and "invoices"."total_jpy" > 0),
	CONSTRAINT "invoices_total_check" CHECK ("invoices"."total_jpy" = "invoices"."items_jpy" + "invoices"."domestic_shipping_jpy" + "invoices"."service_fee_jpy" + "invoices"."tax_jpy" and "invoices"."taxable_jpy" = "invoices"."items_jpy" + "invoices"."service_fee_jpy"),
	CONSTRAINT "invoices_version_check" CHECK ("invoices"."version" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"capture_ref" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_jpy" bigint NOT NULL,
	"amount" bigint,
	"currency" text,
	"pay_url" text,
	"recorded_by" text,
	"note" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payments_provider_ref_key" UNIQUE("provider","provider_ref"),
	CONSTRAINT "payments_capture_ref_key" UNIQUE("provider","capture_ref"),
	CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('manual', 'paypal', 'stripe')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'succeeded', 'failed', 'held', 'duplicate')),
	CONSTRAINT "payments_requested_check" CHECK ("payments"."requested_jpy" > 0),
	CONSTRAINT "payments_note_check" CHECK (char_length("payments"."note") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount_jpy" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_jpy" > 0),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('due', 'done'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "webhook_events_event_key" UNIQUE("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"full_name" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"region" text NOT NULL,
	"postal_code" text NOT NULL,
	"country" text NOT NULL,
	"phone" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "addresses_country_check" CHECK ("addresses"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "addresses_lengths_check" CHECK (char_length("addresses"."full_name") between 1 and 120 and char_length("addresses"."street") between 1 and 300 and char_length("addresses"."city") between 1 and 120 and char_length("addresses"."region") <= 120 and char_length("addresses"."postal_code") <= 20 and char_length("addresses"."phone") between 1 and 40)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"tone" text DEFAULT 'info' NOT NULL,
	"type" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text,
	"request_id" uuid,
	"read_at" timestamp with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_tone_check" CHECK ("notifications"."tone" in ('info', 'success', 'warning')),
	CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" ~ '^[a-zA-Z_]+$'),
	CONSTRAINT "notifications_link_check" CHECK ("notifications"."link" ~ '^/[^/]')
);
--> statement-breakpoint
CREATE TABLE "request_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_photos_item_key" UNIQUE("item_id"),
	CONSTRAINT "request_photos_type_check" CHECK ("request_photos"."content_type" in ('image/webp', 'image/jpeg', 'image/png')),
	CONSTRAINT "request_photos_size_check" CHECK ("request_photos"."byte_size" between 1 and 5242880)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "unit_price_jpy" integer;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "domestic_shipping_jpy" integer;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_item_id_request_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."request_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_photos" ADD CONSTRAINT "request_photos_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_photos" ADD CONSTRAINT "request_photos_item_id_request_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."request_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_request_idx" ON "invoices" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" USING btree ("user_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_at") WHERE "invoices"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_open_key" ON "invoices" USING btree ("request_id","kind") WHERE "invoices"."status" = 'open';--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "addresses_user_idx" ON "addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_one_default_key" ON "addresses" USING btree ("user_id") WHERE "addresses"."is_default";--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "request_photos_request_idx" ON "request_photos" USING btree ("request_id");--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_title_check" CHECK (char_length("request_items"."title") <= 300);--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_unit_price_check" CHECK ("request_items"."unit_price_jpy" between 1 and 10000000);--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_domestic_shipping_check" CHECK ("request_items"."domestic_shipping_jpy" between 0 and 1000000);--> statement-breakpoint
-- Hand-written (drizzle-kit does not generate triggers). An issued invoice is frozen: its number,
-- lines and amounts never change (a change issues a new invoice); only its status moves.
CREATE FUNCTION invoices_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.number, NEW.year, NEW.sequence, NEW.kind, NEW.request_id, NEW.user_id, NEW.recipient, NEW.issuer,
      NEW.tax_rate_basis_points, NEW.service_fee_unit_jpy, NEW.yen_rates, NEW.items_jpy,
      NEW.domestic_shipping_jpy, NEW.service_fee_jpy, NEW.taxable_jpy, NEW.tax_jpy, NEW.total_jpy,
      NEW.issued_at)
     IS DISTINCT FROM
     (OLD.number, OLD.year, OLD.sequence, OLD.kind, OLD.request_id, OLD.user_id, OLD.recipient, OLD.issuer,
      OLD.tax_rate_basis_points, OLD.service_fee_unit_jpy, OLD.yen_rates, OLD.items_jpy,
      OLD.domestic_shipping_jpy, OLD.service_fee_jpy, OLD.taxable_jpy, OLD.tax_jpy, OLD.total_jpy,
      OLD.issued_at) THEN
    RAISE EXCEPTION 'invoice % is frozen: only its status may change', OLD.number USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER invoices_no_amount_change BEFORE UPDATE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION invoices_frozen();--> statement-breakpoint
CREATE TRIGGER invoice_lines_no_update BEFORE UPDATE ON "invoice_lines"
  FOR EACH ROW EXECUTE FUNCTION order_events_append_only();--> statement-breakpoint
CREATE TRIGGER refunds_no_update BEFORE UPDATE ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION order_events_append_only();--> statement-breakpoint
-- A payment's invoice, provider and asked amount are fixed; a reported amount, once known, too.
CREATE FUNCTION payments_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.invoice_id, NEW.provider, NEW.requested_jpy) IS DISTINCT FROM (OLD.invoice_id, OLD.provider, OLD.requested_jpy)
     OR (OLD.provider_ref IS NOT NULL AND NEW.provider_ref IS DISTINCT FROM OLD.provider_ref)
     OR (OLD.capture_ref IS NOT NULL AND NEW.capture_ref IS DISTINCT FROM OLD.capture_ref)
     OR (OLD.amount IS NOT NULL AND NEW.amount IS DISTINCT FROM OLD.amount) THEN
    RAISE EXCEPTION 'payment %: recorded facts never change', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER payments_facts_fixed BEFORE UPDATE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION payments_fixed();--> statement-breakpoint
-- Invoices and payments write their history to order_events too; it goes with them.
CREATE FUNCTION order_entity_delete_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_events WHERE entity_type = TG_ARGV[0] AND entity_id = OLD.id;
  RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER invoices_history_gone AFTER DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION order_entity_delete_history('invoice');--> statement-breakpoint
CREATE TRIGGER payments_history_gone AFTER DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION order_entity_delete_history('payment');
