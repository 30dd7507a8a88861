-- Hand-added: the trigram operator classes of the GIN indexes below (pg_trgm ships with PostgreSQL
-- and is a trusted extension; docs/decisions/022-orders-at-scale.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "purchase_requests_queue_idx";--> statement-breakpoint
DROP INDEX "purchase_requests_user_idx";--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchase_requests_submitted_idx" ON "purchase_requests" USING btree ("submitted_at","id");--> statement-breakpoint
CREATE INDEX "purchase_requests_status_idx" ON "purchase_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "purchase_requests_number_trgm_idx" ON "purchase_requests" USING gin ("number" collate "C" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "request_items_url_trgm_idx" ON "request_items" USING gin ("url" collate "C" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchase_requests_queue_idx" ON "purchase_requests" USING btree ("status","submitted_at","id");--> statement-breakpoint
CREATE INDEX "purchase_requests_user_idx" ON "purchase_requests" USING btree ("user_id","submitted_at","id");
