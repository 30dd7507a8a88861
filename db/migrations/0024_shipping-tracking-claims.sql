CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"customer_note" text,
	"carrier_reference" text,
	"close_reason" text,
	"refund_jpy" integer,
	"version" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "claims_shipmentId_unique" UNIQUE("shipment_id"),
	CONSTRAINT "claims_status_check" CHECK ("claims"."status" in ('open', 'investigating', 'lost', 'closed')),
	CONSTRAINT "claims_note_check" CHECK (char_length("claims"."customer_note") <= 2000),
	CONSTRAINT "claims_reference_check" CHECK (char_length("claims"."carrier_reference") <= 100),
	CONSTRAINT "claims_reason_check" CHECK (char_length("claims"."close_reason") <= 2000),
	CONSTRAINT "claims_refund_check" CHECK ("claims"."refund_jpy" >= 0),
	CONSTRAINT "claims_resolved_check" CHECK (("claims"."status" in ('lost', 'closed')) = ("claims"."resolved_at" is not null)),
	CONSTRAINT "claims_version_check" CHECK ("claims"."version" >= 0)
);
--> statement-breakpoint
ALTER TABLE "request_items" DROP CONSTRAINT "request_items_status_check";--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_open_idx" ON "claims" USING btree ("opened_at") WHERE "claims"."status" in ('open', 'investigating');--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_status_check" CHECK ("request_items"."status" in ('pending', 'quoted', 'rejected', 'to_buy', 'ordered', 'received', 'unavailable', 'shipped', 'cancelled'));