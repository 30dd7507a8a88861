CREATE TABLE "conversation_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"content_type" text NOT NULL,
	"file_key" text NOT NULL,
	"byte_size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_attachments_type_check" CHECK ("conversation_attachments"."content_type" in ('image/webp', 'application/pdf')),
	CONSTRAINT "conversation_attachments_size_check" CHECK ("conversation_attachments"."byte_size" between 1 and 5242880),
	CONSTRAINT "conversation_attachments_position_check" CHECK ("conversation_attachments"."position" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"author_id" text,
	"author_side" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_messages_side_check" CHECK ("conversation_messages"."author_side" in ('customer', 'staff')),
	CONSTRAINT "conversation_messages_body_check" CHECK (char_length("conversation_messages"."body") <= 4000)
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid,
	"shipment_id" uuid,
	"customer_id" text NOT NULL,
	"waiting_since" timestamp (3) with time zone,
	"assigned_to" text,
	"customer_read_at" timestamp (3) with time zone,
	"staff_read_at" timestamp (3) with time zone,
	"customer_emailed_at" timestamp (3) with time zone,
	"staff_emailed_at" timestamp (3) with time zone,
	"last_message_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_requestId_unique" UNIQUE("request_id"),
	CONSTRAINT "conversations_shipmentId_unique" UNIQUE("shipment_id"),
	CONSTRAINT "conversations_owner_check" CHECK (("conversations"."request_id" is null) <> ("conversations"."shipment_id" is null))
);
--> statement-breakpoint
ALTER TABLE "conversation_attachments" ADD CONSTRAINT "conversation_attachments_message_id_conversation_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."conversation_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_request_id_purchase_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_attachments_message_idx" ON "conversation_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "conversation_messages_conversation_idx" ON "conversation_messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_waiting_idx" ON "conversations" USING btree ("waiting_since","id") WHERE "conversations"."waiting_since" is not null;--> statement-breakpoint
CREATE INDEX "conversations_customer_idx" ON "conversations" USING btree ("customer_id");