CREATE TABLE "storage_reminders" (
	"item_id" uuid NOT NULL,
	"threshold_days" smallint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_reminders_item_id_threshold_days_pk" PRIMARY KEY("item_id","threshold_days"),
	CONSTRAINT "storage_reminders_threshold_check" CHECK ("storage_reminders"."threshold_days" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "storage_reminders" ADD CONSTRAINT "storage_reminders_item_id_request_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."request_items"("id") ON DELETE cascade ON UPDATE no action;