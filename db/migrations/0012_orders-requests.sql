CREATE SEQUENCE "public"."purchase_request_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entity_type" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"event" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"note" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"visible_to_customer" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_events_entity_type_check" CHECK ("order_events"."entity_type" ~ '^[a-z_]+$'),
	CONSTRAINT "order_events_actor_kind_check" CHECK ("order_events"."actor_kind" in ('customer', 'staff', 'system', 'provider')),
	CONSTRAINT "order_events_note_check" CHECK (char_length("order_events"."note") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "purchase_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text DEFAULT ('PR-' || lpad(nextval('purchase_request_number_seq')::text, 6, '0')) NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"customer_note" text,
	"locale" text NOT NULL,
	"submitted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"quoted_at" timestamp with time zone,
	"quote_expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_requests_number_unique" UNIQUE("number"),
	CONSTRAINT "purchase_requests_status_check" CHECK ("purchase_requests"."status" in ('submitted', 'quoted', 'rejected', 'cancelled', 'paid', 'expired', 'in_progress', 'completed')),
	CONSTRAINT "purchase_requests_locale_check" CHECK ("purchase_requests"."locale" in ('es', 'en')),
	CONSTRAINT "purchase_requests_note_check" CHECK (char_length("purchase_requests"."customer_note") <= 2000),
	CONSTRAINT "purchase_requests_version_check" CHECK ("purchase_requests"."version" >= 0)
);
--> statement-breakpoint
CREATE TABLE "request_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"url" text NOT NULL,
	"shop_host" text NOT NULL,
	"store_id" integer,
	"quantity" smallint DEFAULT 1 NOT NULL,
	"notes" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_items_position_key" UNIQUE("request_id","position"),
	CONSTRAINT "request_items_position_check" CHECK ("request_items"."position" between 1 and 10),
	CONSTRAINT "request_items_url_check" CHECK (char_length("request_items"."url") <= 2000 and "request_items"."url" ~* '^https?://'),
	CONSTRAINT "request_items_quantity_check" CHECK ("request_items"."quantity" between 1 and 99),
	CONSTRAINT "request_items_notes_check" CHECK (char_length("request_items"."notes") <= 2000),
	CONSTRAINT "request_items_status_check" CHECK ("request_items"."status" in ('pending', 'quoted', 'rejected', 'to_buy', 'ordered', 'received', 'unavailable', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_entity_idx" ON "order_events" USING btree ("entity_type","entity_id","id");--> statement-breakpoint
CREATE INDEX "purchase_requests_queue_idx" ON "purchase_requests" USING btree ("status","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "purchase_requests_user_idx" ON "purchase_requests" USING btree ("user_id","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written (drizzle-kit does not generate triggers): order_events is append-only.
CREATE FUNCTION order_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'order_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER order_events_no_update BEFORE UPDATE ON "order_events"
  FOR EACH ROW EXECUTE FUNCTION order_events_append_only();--> statement-breakpoint
-- A request's history goes with the request (an account deleted takes its requests, then this).
CREATE FUNCTION purchase_requests_delete_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_events WHERE entity_type = 'purchase_request' AND entity_id = OLD.id;
  RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER purchase_requests_history_gone AFTER DELETE ON "purchase_requests"
  FOR EACH ROW EXECUTE FUNCTION purchase_requests_delete_history();
