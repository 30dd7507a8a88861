CREATE SEQUENCE "public"."package_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "package_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"package_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"content_type" text NOT NULL,
	"file_key" text NOT NULL,
	"thumb_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"thumb_byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "package_photos_position_key" UNIQUE("package_id","position"),
	CONSTRAINT "package_photos_position_check" CHECK ("package_photos"."position" between 1 and 8),
	CONSTRAINT "package_photos_type_check" CHECK ("package_photos"."content_type" in ('image/webp', 'image/jpeg')),
	CONSTRAINT "package_photos_key_check" CHECK ("package_photos"."file_key" ~ '^[a-z0-9/-]+\.[a-z]+$' and "package_photos"."thumb_key" ~ '^[a-z0-9/-]+\.[a-z]+$')
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text DEFAULT ('PK-' || lpad(nextval('package_number_seq')::text, 6, '0')) NOT NULL,
	"user_id" text NOT NULL,
	"shelf" text NOT NULL,
	"condition_note" text,
	"received_by" text,
	"arrived_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "packages_number_unique" UNIQUE("number"),
	CONSTRAINT "packages_shelf_check" CHECK (char_length("packages"."shelf") between 1 and 40),
	CONSTRAINT "packages_note_check" CHECK (char_length("packages"."condition_note") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "package_id" uuid;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "received_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "package_photos" ADD CONSTRAINT "package_photos_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "packages_user_idx" ON "packages" USING btree ("user_id","arrived_at");--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_items_package_idx" ON "request_items" USING btree ("package_id");--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_weight_check" CHECK ("request_items"."weight_grams" between 1 and 30000);