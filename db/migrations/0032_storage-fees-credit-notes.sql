CREATE TABLE "credit_note_counters" (
	"year" smallint PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_note_counters_last_check" CHECK ("credit_note_counters"."last_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_note_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credit_note_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_jpy" bigint NOT NULL,
	"amount_jpy" bigint NOT NULL,
	"taxable" boolean NOT NULL,
	CONSTRAINT "credit_note_lines_position_key" UNIQUE("credit_note_id","position"),
	CONSTRAINT "credit_note_lines_kind_check" CHECK ("credit_note_lines"."kind" in ('item', 'domestic_shipping', 'service_fee', 'shipping', 'storage_fee')),
	CONSTRAINT "credit_note_lines_amount_check" CHECK ("credit_note_lines"."amount_jpy" = "credit_note_lines"."unit_price_jpy" * "credit_note_lines"."quantity"),
	CONSTRAINT "credit_note_lines_quantity_check" CHECK ("credit_note_lines"."quantity" >= 1),
	CONSTRAINT "credit_note_lines_unit_check" CHECK ("credit_note_lines"."unit_price_jpy" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"year" smallint NOT NULL,
	"sequence" integer NOT NULL,
	"invoice_id" uuid NOT NULL,
	"applied_to_invoice_id" uuid,
	"request_id" uuid,
	"shipment_id" uuid,
	"user_id" text NOT NULL,
	"locale" text NOT NULL,
	"recipient" jsonb NOT NULL,
	"issuer" jsonb NOT NULL,
	"tax_rate_basis_points" integer NOT NULL,
	"yen_rates" jsonb NOT NULL,
	"taxable_jpy" bigint NOT NULL,
	"non_taxable_jpy" bigint NOT NULL,
	"tax_jpy" bigint NOT NULL,
	"total_jpy" bigint NOT NULL,
	"reason" text NOT NULL,
	"issued_by" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_year_sequence_key" UNIQUE("year","sequence"),
	CONSTRAINT "credit_notes_owner_check" CHECK (("credit_notes"."request_id" is null) <> ("credit_notes"."shipment_id" is null)),
	CONSTRAINT "credit_notes_amounts_check" CHECK ("credit_notes"."taxable_jpy" >= 0 and "credit_notes"."non_taxable_jpy" >= 0 and "credit_notes"."tax_jpy" >= 0 and "credit_notes"."total_jpy" > 0 and "credit_notes"."total_jpy" = "credit_notes"."taxable_jpy" + "credit_notes"."non_taxable_jpy" + "credit_notes"."tax_jpy"),
	CONSTRAINT "credit_notes_locale_check" CHECK ("credit_notes"."locale" in ('es', 'en')),
	CONSTRAINT "credit_notes_reason_check" CHECK (char_length("credit_notes"."reason") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credit_applied_jpy" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "estimated_storage_fee_jpy" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "estimated_tax_jpy" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_note_lines" ADD CONSTRAINT "credit_note_lines_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_applied_to_invoice_id_invoices_id_fk" FOREIGN KEY ("applied_to_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_user_idx" ON "credit_notes" USING btree ("user_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "credit_notes_shipment_idx" ON "credit_notes" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "credit_notes_request_idx" ON "credit_notes" USING btree ("request_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_applied_check" CHECK ("invoices"."credit_applied_jpy" >= 0 and "invoices"."credit_applied_jpy" <= "invoices"."total_jpy");--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_estimate_storage_check" CHECK ("shipments"."estimated_storage_fee_jpy" >= 0 and "shipments"."estimated_tax_jpy" >= 0);--> statement-breakpoint
-- Hand-written: the frozen invoice covers the credit a re-issued receipt carries over
-- (docs/decisions/037); everything else as in migration 0023.
CREATE OR REPLACE FUNCTION invoices_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.number, NEW.year, NEW.sequence, NEW.kind, NEW.request_id, NEW.shipment_id, NEW.user_id, NEW.recipient,
      NEW.issuer, NEW.tax_rate_basis_points, NEW.service_fee_unit_jpy, NEW.yen_rates, NEW.items_jpy,
      NEW.domestic_shipping_jpy, NEW.service_fee_jpy, NEW.shipping_jpy, NEW.storage_fee_jpy, NEW.taxable_jpy,
      NEW.tax_jpy, NEW.total_jpy, NEW.credit_applied_jpy, NEW.issued_at)
     IS DISTINCT FROM
     (OLD.number, OLD.year, OLD.sequence, OLD.kind, OLD.request_id, OLD.shipment_id, OLD.user_id, OLD.recipient,
      OLD.issuer, OLD.tax_rate_basis_points, OLD.service_fee_unit_jpy, OLD.yen_rates, OLD.items_jpy,
      OLD.domestic_shipping_jpy, OLD.service_fee_jpy, OLD.shipping_jpy, OLD.storage_fee_jpy, OLD.taxable_jpy,
      OLD.tax_jpy, OLD.total_jpy, OLD.credit_applied_jpy, OLD.issued_at) THEN
    RAISE EXCEPTION 'invoice % is frozen: only its status may change', OLD.number USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
-- A credit note and its lines are frozen whole: no column of them ever changes.
CREATE TRIGGER credit_notes_no_update BEFORE UPDATE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION order_events_append_only();--> statement-breakpoint
CREATE TRIGGER credit_note_lines_no_update BEFORE UPDATE ON "credit_note_lines"
  FOR EACH ROW EXECUTE FUNCTION order_events_append_only();--> statement-breakpoint
-- Its history (order_events, entity 'credit_note') goes with it, as an invoice's does.
CREATE TRIGGER credit_notes_history_gone AFTER DELETE ON "credit_notes"
  FOR EACH ROW EXECUTE FUNCTION order_entity_delete_history('credit_note');
