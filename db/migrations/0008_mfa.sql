CREATE TABLE "auth_backup_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_factor_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"factor_id" uuid NOT NULL,
	"code_hash" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"friendly_name" text NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"issuer" text,
	"secret" text,
	"phone" text,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "auth_factors_type_check" CHECK ("auth_factors"."type" in ('totp', 'phone')),
	CONSTRAINT "auth_factors_status_check" CHECK ("auth_factors"."status" in ('unverified', 'verified')),
	CONSTRAINT "auth_factors_shape_check" CHECK (("auth_factors"."type" = 'totp' and "auth_factors"."secret" is not null) or ("auth_factors"."type" = 'phone' and "auth_factors"."phone" is not null))
);
--> statement-breakpoint
CREATE TABLE "auth_pending_sign_ins" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"dont_remember" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_sms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP TABLE "two_factors" CASCADE;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "aal" text;--> statement-breakpoint
ALTER TABLE "auth_backup_codes" ADD CONSTRAINT "auth_backup_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_factor_challenges" ADD CONSTRAINT "auth_factor_challenges_factor_id_auth_factors_id_fk" FOREIGN KEY ("factor_id") REFERENCES "public"."auth_factors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_factors" ADD CONSTRAINT "auth_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_pending_sign_ins" ADD CONSTRAINT "auth_pending_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_backup_codes_user_idx" ON "auth_backup_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_factor_challenges_factor_idx" ON "auth_factor_challenges" USING btree ("factor_id");--> statement-breakpoint
CREATE INDEX "auth_factors_user_idx" ON "auth_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_factors_user_name_idx" ON "auth_factors" USING btree ("user_id","friendly_name");--> statement-breakpoint
CREATE INDEX "auth_pending_sign_ins_user_idx" ON "auth_pending_sign_ins" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "two_factor_enabled";