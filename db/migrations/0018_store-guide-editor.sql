ALTER TABLE "stores" ADD COLUMN "logo_png" "bytea";--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "stores_order_idx" ON "stores" USING btree ("sort_order","name");--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_logo_check" CHECK (("stores"."logo_png" is null) = ("stores"."logo_sha256" is null));--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_logo_size_check" CHECK (octet_length("stores"."logo_png") <= 262144);