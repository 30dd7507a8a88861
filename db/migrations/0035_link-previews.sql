CREATE TABLE "link_preview_images" (
	"url" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"read_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_preview_images_url_check" CHECK (char_length("link_preview_images"."url") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "link_previews" (
	"url" text PRIMARY KEY NOT NULL,
	"outcome" jsonb NOT NULL,
	"read_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_previews_url_check" CHECK (char_length("link_previews"."url") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "preview" jsonb;--> statement-breakpoint
CREATE INDEX "link_preview_images_read_at_idx" ON "link_preview_images" USING btree ("read_at");--> statement-breakpoint
CREATE INDEX "link_previews_read_at_idx" ON "link_previews" USING btree ("read_at");--> statement-breakpoint
CREATE INDEX "request_items_preview_image_idx" ON "request_items" USING btree (("preview" ->> 'imageUrl')) WHERE "request_items"."preview" is not null;