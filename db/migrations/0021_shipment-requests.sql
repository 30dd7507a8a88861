CREATE SEQUENCE "public"."shipment_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"shipment_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "shipment_items_shipment_id_item_id_pk" PRIMARY KEY("shipment_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text DEFAULT ('SH-' || lpad(nextval('shipment_number_seq')::text, 6, '0')) NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"method" text NOT NULL,
	"address" jsonb NOT NULL,
	"country" text NOT NULL,
	"region" text NOT NULL,
	"route" text NOT NULL,
	"estimated_weight_g" integer NOT NULL,
	"estimated_price_jpy" integer NOT NULL,
	"locale" text NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"requested_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_number_unique" UNIQUE("number"),
	CONSTRAINT "shipments_status_check" CHECK ("shipments"."status" in ('requested', 'cancelled', 'packed', 'paid', 'shipped', 'delivered', 'lost')),
	CONSTRAINT "shipments_method_check" CHECK ("shipments"."method" in ('economic', 'express')),
	CONSTRAINT "shipments_region_check" CHECK ("shipments"."region" in ('asia', 'europe_canada_mexico', 'usa', 'central_south_america')),
	CONSTRAINT "shipments_route_check" CHECK ("shipments"."route" in ('direct', 'courier_via_usa')),
	CONSTRAINT "shipments_country_check" CHECK ("shipments"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "shipments_estimate_check" CHECK ("shipments"."estimated_weight_g" > 0 and "shipments"."estimated_price_jpy" > 0),
	CONSTRAINT "shipments_locale_check" CHECK ("shipments"."locale" in ('es', 'en')),
	CONSTRAINT "shipments_version_check" CHECK ("shipments"."version" >= 0)
);
--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "reserved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "storage_paused_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_item_id_request_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."request_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_items_one_active_key" ON "shipment_items" USING btree ("item_id") WHERE "shipment_items"."active";--> statement-breakpoint
CREATE INDEX "shipments_user_idx" ON "shipments" USING btree ("user_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "shipments_queue_idx" ON "shipments" USING btree ("status","requested_at","id");--> statement-breakpoint
CREATE INDEX "shipments_requested_idx" ON "shipments" USING btree ("requested_at","id");--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_paused_check" CHECK ("request_items"."storage_paused_days" >= 0);