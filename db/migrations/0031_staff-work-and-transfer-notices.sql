CREATE TABLE "transfer_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text,
	"proof_key" text,
	"proof_type" text,
	"proof_bytes" integer,
	"payment_id" uuid,
	"resolved_by" text,
	"dismiss_reason" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "transfer_notices_status_check" CHECK ("transfer_notices"."status" in ('pending', 'confirmed', 'dismissed')),
	CONSTRAINT "transfer_notices_note_check" CHECK (char_length("transfer_notices"."note") <= 500),
	CONSTRAINT "transfer_notices_proof_check" CHECK (("transfer_notices"."proof_key" is null and "transfer_notices"."proof_type" is null and "transfer_notices"."proof_bytes" is null) or ("transfer_notices"."proof_key" ~ '^[a-z0-9/-]+\.(webp|pdf)$' and "transfer_notices"."proof_type" in ('image/webp', 'application/pdf') and "transfer_notices"."proof_bytes" between 1 and 10485760)),
	CONSTRAINT "transfer_notices_resolved_check" CHECK (("transfer_notices"."status" = 'pending') = ("transfer_notices"."resolved_at" is null)),
	CONSTRAINT "transfer_notices_dismiss_check" CHECK (("transfer_notices"."status" = 'dismissed') = ("transfer_notices"."dismiss_reason" is not null) and char_length("transfer_notices"."dismiss_reason") <= 1000),
	CONSTRAINT "transfer_notices_version_check" CHECK ("transfer_notices"."version" >= 0)
);
--> statement-breakpoint
DROP INDEX "notifications_user_idx";--> statement-breakpoint
DROP INDEX "notifications_unread_idx";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "audience" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_notices" ADD CONSTRAINT "transfer_notices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_notices" ADD CONSTRAINT "transfer_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_notices" ADD CONSTRAINT "transfer_notices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_notices_one_pending_key" ON "transfer_notices" USING btree ("invoice_id") WHERE "transfer_notices"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "transfer_notices_invoice_idx" ON "transfer_notices" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "transfer_notices_pending_idx" ON "transfer_notices" USING btree ("created_at") WHERE "transfer_notices"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_held_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'held';--> statement-breakpoint
CREATE INDEX "contact_messages_open_idx" ON "contact_messages" USING btree ("created_at") WHERE "contact_messages"."handled_at" is null and not "contact_messages"."is_spam";--> statement-breakpoint
CREATE INDEX "request_items_work_idx" ON "request_items" USING btree ("status","request_id") WHERE "request_items"."status" in ('to_buy', 'ordered');--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","audience","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id","audience") WHERE "notifications"."read_at" is null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_audience_check" CHECK ("notifications"."audience" in ('customer', 'staff'));