CREATE TABLE "shipping_rates" (
	"method" text NOT NULL,
	"ceiling_g" integer NOT NULL,
	"asia" integer NOT NULL,
	"europe_canada_mexico" integer NOT NULL,
	"usa" integer NOT NULL,
	"central_south_america" integer NOT NULL,
	"assumption" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_rates_method_ceiling_g_pk" PRIMARY KEY("method","ceiling_g"),
	CONSTRAINT "shipping_rates_method_check" CHECK ("shipping_rates"."method" in ('economic', 'express')),
	CONSTRAINT "shipping_rates_ceiling_check" CHECK ("shipping_rates"."ceiling_g" > 0),
	CONSTRAINT "shipping_rates_prices_check" CHECK ("shipping_rates"."asia" >= 0 and "shipping_rates"."europe_canada_mexico" >= 0 and "shipping_rates"."usa" >= 0 and "shipping_rates"."central_south_america" >= 0)
);
