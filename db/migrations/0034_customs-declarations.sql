CREATE TABLE "customs_declaration_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"declaration_id" uuid NOT NULL,
	"item_id" uuid,
	"position" smallint NOT NULL,
	"description" text,
	"quantity" integer NOT NULL,
	"value_jpy" integer NOT NULL,
	"net_weight_g" integer,
	"hs_code" text,
	"origin_country" text DEFAULT 'JP' NOT NULL,
	CONSTRAINT "customs_declaration_lines_position_key" UNIQUE("declaration_id","position"),
	CONSTRAINT "customs_declaration_lines_description_check" CHECK (char_length("customs_declaration_lines"."description") between 1 and 120),
	CONSTRAINT "customs_declaration_lines_quantity_check" CHECK ("customs_declaration_lines"."quantity" between 1 and 9999),
	CONSTRAINT "customs_declaration_lines_value_check" CHECK ("customs_declaration_lines"."value_jpy" >= 0),
	CONSTRAINT "customs_declaration_lines_weight_check" CHECK ("customs_declaration_lines"."net_weight_g" > 0),
	CONSTRAINT "customs_declaration_lines_hs_check" CHECK ("customs_declaration_lines"."hs_code" ~ '^[0-9]{6,10}$'),
	CONSTRAINT "customs_declaration_lines_origin_check" CHECK ("customs_declaration_lines"."origin_country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "customs_declarations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customs_declarations_shipmentId_unique" UNIQUE("shipment_id"),
	CONSTRAINT "customs_declarations_confirmed_check" CHECK (("customs_declarations"."confirmed_by" is null) = ("customs_declarations"."confirmed_at" is null)),
	CONSTRAINT "customs_declarations_version_check" CHECK ("customs_declarations"."version" >= 0)
);
--> statement-breakpoint
ALTER TABLE "customs_declaration_lines" ADD CONSTRAINT "customs_declaration_lines_declaration_id_customs_declarations_id_fk" FOREIGN KEY ("declaration_id") REFERENCES "public"."customs_declarations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customs_declaration_lines" ADD CONSTRAINT "customs_declaration_lines_item_id_request_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."request_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customs_declarations" ADD CONSTRAINT "customs_declarations_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customs_declaration_lines_item_idx" ON "customs_declaration_lines" USING btree ("item_id");