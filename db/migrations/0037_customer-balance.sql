CREATE TABLE "balance_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"balance_jpy" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_accounts_never_negative" CHECK ("balance_accounts"."balance_jpy" >= 0)
);
--> statement-breakpoint
CREATE TABLE "balance_movements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "balance_movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_jpy" bigint NOT NULL,
	"balance_after_jpy" bigint NOT NULL,
	"invoice_id" uuid,
	"payment_id" uuid,
	"refund_id" uuid,
	"reference" text,
	"actor_id" text,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_movements_kind_check" CHECK ("balance_movements"."kind" in ('topup', 'payment', 'refund', 'adjustment', 'reversal')),
	CONSTRAINT "balance_movements_sign_check" CHECK (("balance_movements"."kind" in ('topup', 'refund', 'reversal') and "balance_movements"."amount_jpy" > 0) or ("balance_movements"."kind" = 'payment' and "balance_movements"."amount_jpy" < 0) or ("balance_movements"."kind" = 'adjustment' and "balance_movements"."amount_jpy" <> 0)),
	CONSTRAINT "balance_movements_after_check" CHECK ("balance_movements"."balance_after_jpy" >= 0),
	CONSTRAINT "balance_movements_reason_check" CHECK ("balance_movements"."reason" is null or char_length("balance_movements"."reason") between 1 and 500),
	CONSTRAINT "balance_movements_adjustment_reason_check" CHECK ("balance_movements"."kind" <> 'adjustment' or "balance_movements"."reason" is not null),
	CONSTRAINT "balance_movements_reference_check" CHECK ("balance_movements"."reference" is null or char_length("balance_movements"."reference") between 1 and 120)
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_provider_check";--> statement-breakpoint
ALTER TABLE "balance_accounts" ADD CONSTRAINT "balance_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movements" ADD CONSTRAINT "balance_movements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movements" ADD CONSTRAINT "balance_movements_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movements" ADD CONSTRAINT "balance_movements_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movements" ADD CONSTRAINT "balance_movements_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_movements_user_idx" ON "balance_movements" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "balance_movements_invoice_idx" ON "balance_movements" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "balance_movements_topup_reference_key" ON "balance_movements" USING btree ("reference") WHERE "balance_movements"."kind" = 'topup';--> statement-breakpoint
CREATE UNIQUE INDEX "balance_movements_refund_key" ON "balance_movements" USING btree ("refund_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('manual', 'paypal', 'stripe', 'balance'));--> statement-breakpoint
-- Hand-written (docs/decisions/050): the ledger is append-only. No UPDATE, no TRUNCATE; a DELETE
-- only as part of erasing the customer's account (the ON DELETE CASCADE from users, when the
-- user row is already gone).
CREATE FUNCTION balance_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'balance_movements is append-only (%)', TG_OP
    USING ERRCODE = 'check_violation', CONSTRAINT = 'balance_movements_append_only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER balance_movements_no_change BEFORE UPDATE OR DELETE ON "balance_movements"
  FOR EACH ROW EXECUTE FUNCTION balance_movements_append_only();--> statement-breakpoint
CREATE TRIGGER balance_movements_no_truncate BEFORE TRUNCATE ON "balance_movements"
  FOR EACH STATEMENT EXECUTE FUNCTION balance_movements_append_only();
