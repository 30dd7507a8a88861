-- Hand-added: the admin user list searches names accent- and case-insensitively
-- (docs/decisions/024-admin-users.md). unaccent ships with PostgreSQL and is a trusted extension;
-- an index needs an IMMUTABLE function, which unaccent(text) is not (its dictionary could
-- change), so f_unaccent names the dictionary and is declared immutable, the usual wrapper.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
CREATE INDEX "users_name_search_idx" ON "users" USING gin (lower(f_unaccent("name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role","created_at","id");