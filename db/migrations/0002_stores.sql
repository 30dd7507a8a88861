CREATE TABLE "store_categories" (
	"store_id" integer NOT NULL,
	"category" text NOT NULL,
	CONSTRAINT "store_categories_store_id_category_pk" PRIMARY KEY("store_id","category"),
	CONSTRAINT "store_categories_category_check" CHECK ("store_categories"."category" in ('general_and_anime_goods', 'official_anime_stores', 'figures_and_collectibles', 'fashion_and_lifestyle', 'household_and_misc', 'beauty_and_cosmetics'))
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"description_es" text NOT NULL,
	"description_en" text NOT NULL,
	"logo_text" text NOT NULL,
	"logo_color" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stores_slug_unique" UNIQUE("slug"),
	CONSTRAINT "stores_url_check" CHECK ("stores"."url" ~ '^https://'),
	CONSTRAINT "stores_logo_color_check" CHECK ("stores"."logo_color" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
ALTER TABLE "store_categories" ADD CONSTRAINT "store_categories_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_categories_category_idx" ON "store_categories" USING btree ("category");