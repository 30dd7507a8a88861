CREATE TABLE "reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"rating" smallint NOT NULL,
	"text" text NOT NULL,
	"language" text NOT NULL,
	"reviewed_on" date NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_country_check" CHECK ("reviews"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "reviews_language_check" CHECK ("reviews"."language" in ('es', 'en'))
);
--> statement-breakpoint
CREATE INDEX "reviews_published_date_idx" ON "reviews" USING btree ("is_published","reviewed_on");