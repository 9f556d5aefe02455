CREATE TABLE "judgment_corrections" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"aspect" text NOT NULL,
	"engine_value" jsonb,
	"corrected_value" jsonb,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"member_id" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "judgment_subjects" (
	"gallery_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	"judged_version" bigint DEFAULT 0 NOT NULL,
	"stale_since" timestamp(3) with time zone,
	"marked_xact" bigint,
	"lease_until" timestamp(3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"judged_at" timestamp(3) with time zone,
	CONSTRAINT "judgment_subjects_gallery_id_kind_subject_id_pk" PRIMARY KEY("gallery_id","kind","subject_id")
);
--> statement-breakpoint
CREATE TABLE "judgments" (
	"gallery_id" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"aspect" text NOT NULL,
	"value" jsonb NOT NULL,
	"probability" double precision,
	"model" text NOT NULL,
	"evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_hash" text NOT NULL,
	"judged_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "judgments_gallery_id_subject_kind_subject_id_aspect_pk" PRIMARY KEY("gallery_id","subject_kind","subject_id","aspect")
);
--> statement-breakpoint
CREATE INDEX "judgment_corrections_subject_idx" ON "judgment_corrections" USING btree ("gallery_id","subject_kind","subject_id","aspect");--> statement-breakpoint
CREATE INDEX "judgment_subjects_stale_idx" ON "judgment_subjects" USING btree ("stale_since") WHERE "judgment_subjects"."judged_version" < "judgment_subjects"."version";--> statement-breakpoint
CREATE INDEX "judgment_subjects_marked_idx" ON "judgment_subjects" USING btree ("marked_xact") WHERE "judgment_subjects"."judged_version" < "judgment_subjects"."version";