ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_kind_check";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_amounts_check";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_total_check";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "request_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "shipment_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "shipping_jpy" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "storage_fee_jpy" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "packed_weight_g" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "length_cm" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "width_cm" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "height_cm" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "rate_price_jpy" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "price_jpy" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "price_reason" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "box_photo_key" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "box_thumb_key" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "packed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_shipment_idx" ON "invoices" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_open_shipment_key" ON "invoices" USING btree ("shipment_id") WHERE "invoices"."status" = 'open' and "invoices"."shipment_id" is not null;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('item', 'domestic_shipping', 'service_fee', 'shipping', 'storage_fee'));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_check" CHECK (("invoices"."kind" = 'purchase' and "invoices"."request_id" is not null and "invoices"."shipment_id" is null) or ("invoices"."kind" = 'shipping' and "invoices"."shipment_id" is not null and "invoices"."request_id" is null));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."items_jpy" >= 0 and "invoices"."domestic_shipping_jpy" >= 0 and "invoices"."service_fee_jpy" >= 0 and "invoices"."tax_jpy" >= 0 and "invoices"."shipping_jpy" >= 0 and "invoices"."storage_fee_jpy" >= 0 and "invoices"."total_jpy" > 0);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_total_check" CHECK ("invoices"."total_jpy" = "invoices"."items_jpy" + "invoices"."domestic_shipping_jpy" + "invoices"."service_fee_jpy" + "invoices"."shipping_jpy" + "invoices"."storage_fee_jpy" + "invoices"."tax_jpy" and "invoices"."taxable_jpy" = "invoices"."items_jpy" + "invoices"."service_fee_jpy" + "invoices"."storage_fee_jpy");--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_packed_check" CHECK ("shipments"."packed_weight_g" is null or ("shipments"."packed_weight_g" > 0 and "shipments"."rate_price_jpy" >= 0 and "shipments"."price_jpy" > 0));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_size_check" CHECK (("shipments"."length_cm" is null and "shipments"."width_cm" is null and "shipments"."height_cm" is null) or ("shipments"."length_cm" between 1 and 300 and "shipments"."width_cm" between 1 and 300 and "shipments"."height_cm" between 1 and 300));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_price_reason_check" CHECK ("shipments"."price_jpy" is not distinct from "shipments"."rate_price_jpy" or char_length("shipments"."price_reason") between 1 and 500);--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_tracking_check" CHECK (char_length("shipments"."tracking_number") between 1 and 40);--> statement-breakpoint
-- Hand-written: the frozen invoice covers what a shipping receipt adds (its shipment, the shipping
-- and the storage fees).
CREATE OR REPLACE FUNCTION invoices_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.number, NEW.year, NEW.sequence, NEW.kind, NEW.request_id, NEW.shipment_id, NEW.user_id, NEW.recipient,
      NEW.issuer, NEW.tax_rate_basis_points, NEW.service_fee_unit_jpy, NEW.yen_rates, NEW.items_jpy,
      NEW.domestic_shipping_jpy, NEW.service_fee_jpy, NEW.shipping_jpy, NEW.storage_fee_jpy, NEW.taxable_jpy,
      NEW.tax_jpy, NEW.total_jpy, NEW.issued_at)
     IS DISTINCT FROM
     (OLD.number, OLD.year, OLD.sequence, OLD.kind, OLD.request_id, OLD.shipment_id, OLD.user_id, OLD.recipient,
      OLD.issuer, OLD.tax_rate_basis_points, OLD.service_fee_unit_jpy, OLD.yen_rates, OLD.items_jpy,
      OLD.domestic_shipping_jpy, OLD.service_fee_jpy, OLD.shipping_jpy, OLD.storage_fee_jpy, OLD.taxable_jpy,
      OLD.tax_jpy, OLD.total_jpy, OLD.issued_at) THEN
    RAISE EXCEPTION 'invoice % is frozen: only its status may change', OLD.number USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
