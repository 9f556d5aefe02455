CREATE TABLE "dead_letters" (
	"queue" text NOT NULL,
	"message_id" text NOT NULL,
	"gallery_id" text,
	"body" jsonb NOT NULL,
	"attempts" integer NOT NULL,
	"first_seen_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"times_seen" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "dead_letters_queue_message_id_pk" PRIMARY KEY("queue","message_id")
);
--> statement-breakpoint
ALTER TABLE "judgment_subjects" ADD COLUMN "lease_id" text;--> statement-breakpoint
ALTER TABLE "judgment_subjects" ADD COLUMN "failed_at" timestamp(3) with time zone;--> statement-breakpoint
CREATE INDEX "dead_letters_gallery_idx" ON "dead_letters" USING btree ("gallery_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "judgment_subjects_failed_idx" ON "judgment_subjects" USING btree ("gallery_id","failed_at","kind","subject_id") WHERE "judgment_subjects"."last_error" is not null;