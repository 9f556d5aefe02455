-- Real connectors (docs/decisions.md, "Connectors"): an email connection's inbound token (mail to
-- in+<token>@<INBOUND_EMAIL_DOMAIN> reaches it through the Email Worker), the provider secrets sealed at rest, a
-- message's threading references, authentication verdicts and forwarder, its attachments, and a thread's subject
-- key for threading by subject.
CREATE TABLE "inbox_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"message_id" text NOT NULL,
	"position" integer NOT NULL,
	"filename" text,
	"content_type" text NOT NULL,
	"size_bytes" bigint,
	"disposition" text DEFAULT 'attachment' NOT NULL,
	"storage_key" text,
	"provider_media_id" text,
	"url" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD COLUMN "inbound_token" text;--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD COLUMN "sealed_secrets" text;--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD COLUMN "secret_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "reply_to" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "authentication" jsonb;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "forwarded_by" text;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "subject_key" text;--> statement-breakpoint
ALTER TABLE "inbox_attachments" ADD CONSTRAINT "inbox_attachments_message_id_inbox_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."inbox_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_attachments_message_position_key" ON "inbox_attachments" USING btree ("message_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_connections_inbound_token_key" ON "inbox_connections" USING btree ("inbound_token") WHERE "inbox_connections"."inbound_token" is not null;--> statement-breakpoint
CREATE INDEX "inbox_threads_subject_key_idx" ON "inbox_threads" USING btree ("connection_id","counterpart_address","subject_key","last_message_at") WHERE "inbox_threads"."subject_key" is not null;--> statement-breakpoint
-- Email connections made before the Email Worker get their inbound token now (122 random bits, as hex).
UPDATE "inbox_connections" SET "inbound_token" = replace(gen_random_uuid()::text, '-', '') WHERE "channel" = 'email' AND "inbound_token" IS NULL;
