CREATE TABLE "destination_methods" (
	"country" text NOT NULL,
	"method" text NOT NULL,
	"available" boolean NOT NULL,
	"note" jsonb NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"effective_from" date NOT NULL,
	"is_seed" boolean DEFAULT false NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "destination_methods_country_method_pk" PRIMARY KEY("country","method"),
	CONSTRAINT "destination_methods_method_check" CHECK ("destination_methods"."method" in ('economic', 'express')),
	CONSTRAINT "destination_methods_country_check" CHECK ("destination_methods"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "import_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"effective_from" date NOT NULL,
	"rule" jsonb NOT NULL,
	"is_seed" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_rules_country_check" CHECK ("import_rules"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "import_estimate" jsonb;--> statement-breakpoint
ALTER TABLE "destination_methods" ADD CONSTRAINT "destination_methods_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rules" ADD CONSTRAINT "import_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_rules_country_idx" ON "import_rules" USING btree ("country","effective_from");