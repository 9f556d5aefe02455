CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "artists" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"birth_year" integer,
	"death_year" integer,
	"nationality" text,
	"bio" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artwork_activity_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"actor_id" text,
	"contact_id" text,
	"ref_id" text,
	"ref_table" text,
	"event_type" text NOT NULL,
	"summary" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artwork_artists" (
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"artist_id" text NOT NULL,
	"role" text DEFAULT 'primary' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "artwork_artists_artwork_id_artist_id_role_pk" PRIMARY KEY("artwork_id","artist_id","role")
);
--> statement-breakpoint
CREATE TABLE "artwork_dimensions" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"component" text DEFAULT 'overall' NOT NULL,
	"label" text,
	"height_cm" double precision,
	"width_cm" double precision,
	"depth_cm" double precision,
	"position" integer DEFAULT 0 NOT NULL,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "artwork_drafts" (
	"artwork_id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"patch" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"edited_by" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artwork_formats" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"label" text NOT NULL,
	"height_cm" double precision,
	"width_cm" double precision,
	"depth_cm" double precision,
	"dimension_unit" text DEFAULT 'in' NOT NULL,
	"medium" text,
	"edition_size" integer,
	"stock_quantity" integer DEFAULT 0 NOT NULL,
	"availability_state" text DEFAULT 'available' NOT NULL,
	"price_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artwork_images" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"storage_path" text NOT NULL,
	"url" text NOT NULL,
	"caption" text,
	"width" integer,
	"height" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artwork_tags" (
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artwork_tags_artwork_id_tag_id_pk" PRIMARY KEY("artwork_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "artwork_versions" (
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"published_by" text,
	"published_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "artwork_versions_artwork_id_version_pk" PRIMARY KEY("artwork_id","version")
);
--> statement-breakpoint
CREATE TABLE "artworks" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"artist_id" text,
	"artist_name" text,
	"inventory_number" text,
	"ownership_status" text DEFAULT 'owned' NOT NULL,
	"availability_state" text DEFAULT 'available' NOT NULL,
	"medium" text,
	"year" integer,
	"end_year" integer,
	"date_precision" text DEFAULT 'year' NOT NULL,
	"date_display" text,
	"description" text,
	"dimension_unit" text DEFAULT 'in' NOT NULL,
	"height_cm" double precision,
	"width_cm" double precision,
	"depth_cm" double precision,
	"framed_height_cm" double precision,
	"framed_width_cm" double precision,
	"framed_depth_cm" double precision,
	"dimensions_text" text,
	"location_id" text,
	"price_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"is_edition" boolean DEFAULT false NOT NULL,
	"edition_number" integer,
	"edition_size" integer,
	"edition_type" text,
	"edition_overrides" text[] DEFAULT '{}'::text[] NOT NULL,
	"parent_artwork_id" text,
	"coa_status" text DEFAULT 'not_required' NOT NULL,
	"coa_tracking_number" text,
	"condition_status" text,
	"condition_notes" text,
	"provenance" text,
	"exhibition_history" text,
	"literature" text,
	"catalogue_raisonne" text,
	"market" text DEFAULT 'primary' NOT NULL,
	"custom_status_id" text,
	"show_price_publicly" boolean DEFAULT false NOT NULL,
	"published_at" timestamp(3) with time zone,
	"published_version" integer,
	"save_state" text DEFAULT 'new' NOT NULL,
	"source_system" text,
	"source_external_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"readiness" text,
	"disclosure_required" boolean,
	"judged_at" timestamp(3) with time zone,
	"image_count" integer DEFAULT 0 NOT NULL,
	"thumbnail_url" text,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(title, '') || ' ' || coalesce(artist_name, '') || ' ' || coalesce(medium, '') || ' ' || coalesce(inventory_number, '') || ' ' || coalesce(date_display, ''))) STORED NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auction_records" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"auction_house" text NOT NULL,
	"lot_number" text,
	"notes" text,
	"sale_date" text,
	"hammer_price_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"result" text DEFAULT 'sold' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_statuses" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT 'slate' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'storage' NOT NULL,
	"address" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"scope" text DEFAULT 'artwork' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_list_memberships" (
	"gallery_id" text NOT NULL,
	"list_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"added_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_list_memberships_list_id_contact_id_pk" PRIMARY KEY("list_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "contact_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"kind" text DEFAULT 'pipeline' NOT NULL,
	"is_dynamic" boolean DEFAULT false NOT NULL,
	"dynamic_query" jsonb,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rubric_judgments" (
	"gallery_id" text NOT NULL,
	"rubric_key" text NOT NULL,
	"contact_id" text NOT NULL,
	"verdict" boolean NOT NULL,
	"probability" double precision NOT NULL,
	"model" text NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"judged_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "rubric_judgments_gallery_id_rubric_key_contact_id_pk" PRIMARY KEY("gallery_id","rubric_key","contact_id")
);
--> statement-breakpoint
CREATE TABLE "collector_profiles" (
	"contact_id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"collecting_focus" text,
	"budget_band" text,
	"wishlist_notes" text,
	"preferred_contact_method" text,
	"vip" boolean DEFAULT false NOT NULL,
	"tax_exempt" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_assignees" (
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"member_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_assignees_contact_id_member_id_pk" PRIMARY KEY("contact_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "contact_tags" (
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_tags_contact_id_tag_id_pk" PRIMARY KEY("contact_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"company" text,
	"email" text,
	"phone" text,
	"notes" text,
	"form_of_address" text,
	"contact_type" text DEFAULT 'other' NOT NULL,
	"last_interaction_at" timestamp(3) with time zone,
	"last_interaction_type" text,
	"lead_status" text DEFAULT 'new' NOT NULL,
	"do_not_email" boolean DEFAULT false NOT NULL,
	"email_consent" text DEFAULT 'pending' NOT NULL,
	"archived_at" timestamp(3) with time zone,
	"save_state" text DEFAULT 'new' NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(company, ''))) STORED NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_events" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp(3) with time zone NOT NULL,
	"artwork_id" text,
	"viewing_room_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institution_profiles" (
	"contact_id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"institution_kind" text,
	"acquisition_process" text,
	"primary_contact_name" text,
	"tax_exempt" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interactions" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"type" text DEFAULT 'note' NOT NULL,
	"direction" text,
	"summary" text NOT NULL,
	"occurred_at" timestamp(3) with time zone NOT NULL,
	"artwork_id" text,
	"member_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"author_id" text,
	"body" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"contact_id" text,
	"artwork_id" text,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"sold_at" timestamp(3) with time zone NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"contact_id" text,
	"title" text NOT NULL,
	"notes" text,
	"due_at" timestamp(3) with time zone,
	"completed_at" timestamp(3) with time zone,
	"assignee_id" text,
	"created_by" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_events" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"type" text NOT NULL,
	"livemode" boolean NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"actor_id" text,
	"request_id" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"gallery_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("gallery_id","key")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(3) with time zone,
	"lease_expires_at" timestamp(3) with time zone,
	"last_status_code" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"last_response_body" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"error" text,
	"response_body" text,
	"attempted_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp(3) with time zone,
	"disabled_reason" text,
	"failing_since" timestamp(3) with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fair_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"user_id" text NOT NULL,
	"portal_domain" text NOT NULL,
	"fair_list_id" text,
	"status" text DEFAULT 'running' NOT NULL,
	"step_count" integer DEFAULT 0 NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"last_used_at" timestamp(3) with time zone,
	"revoked_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "galleries" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"livemode" boolean DEFAULT false NOT NULL,
	"default_currency" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "galleries_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"member_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"revoked_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "inbox_connections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"member_id" text NOT NULL,
	"channel" text NOT NULL,
	"provider" text NOT NULL,
	"address" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_synced_at" timestamp(3) with time zone,
	"last_error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"direction" text NOT NULL,
	"from_address" text,
	"from_name" text,
	"to_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"body" text,
	"snippet" text,
	"sent_at" timestamp(3) with time zone NOT NULL,
	"read_at" timestamp(3) with time zone,
	"provider_message_id" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"member_id" text NOT NULL,
	"connection_id" uuid,
	"channel" text NOT NULL,
	"provider_thread_id" text,
	"contact_id" text,
	"contact_name" text,
	"subject" text,
	"last_from" text,
	"last_snippet" text,
	"last_message_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"assigned_to" text,
	"state" text DEFAULT 'open' NOT NULL,
	"snooze_until" timestamp(3) with time zone,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"triage_intent" text,
	"triage_intent_probability" double precision,
	"triage_urgency" text,
	"triage_urgency_probability" double precision,
	"triage_expects_reply" double precision,
	"triage_escalating" double precision,
	"triage_corrected_intent" text,
	"triaged_at" timestamp(3) with time zone,
	"triage_urgency_rank" integer GENERATED ALWAYS AS (case triage_urgency when 'now' then 0 when 'today' then 1 when 'this_week' then 2 when 'later' then 3 when 'none' then 4 end) STORED,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(subject, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(last_from, '') || ' ' || coalesce(last_snippet, ''))) STORED NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_line_items" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"artwork_id" text,
	"description" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"name" text NOT NULL,
	"header" text,
	"footer" text,
	"terms" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"sale_id" text,
	"invoice_number" text NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"issued_date" date,
	"due_date" date,
	"subtotal_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"discount_bps" integer DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_cents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"amount_paid_cents" bigint DEFAULT 0 NOT NULL,
	"accepted_payment_methods" text[] DEFAULT '{}'::text[] NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"fx_as_of" date,
	"fx_usd_per_unit" double precision,
	"fx_base_usd_per_unit" double precision,
	"fx_base_currency" text,
	"base_amount_cents" bigint,
	"billing_name" text,
	"billing_address" text,
	"shipping_name" text,
	"shipping_address" text,
	"tax_address_line1" text,
	"tax_address_city" text,
	"tax_address_state" text,
	"tax_address_postal_code" text,
	"tax_address_country" text,
	"tax_calculated_at" timestamp(3) with time zone,
	"taxability_override" text DEFAULT 'none' NOT NULL,
	"notes" text,
	"archived_at" timestamp(3) with time zone,
	"template_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_evidence" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"match_id" text NOT NULL,
	"question" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"source_label" text,
	"at" timestamp(3) with time zone,
	"evidence_ref" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"match_id" text NOT NULL,
	"member_id" text NOT NULL,
	"action" text NOT NULL,
	"hidden_until" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendation_matches" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"model" text NOT NULL,
	"counterpart_name" text,
	"probability" double precision NOT NULL,
	"sub_scores" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"evidence_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"hidden_until" timestamp(3) with time zone,
	"hidden_by" text,
	"judged_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_items" (
	"gallery_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"caption_override" text,
	"position" integer DEFAULT 0 NOT NULL,
	"price_shown_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"price_visible" boolean DEFAULT true NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_items_offer_id_artwork_id_pk" PRIMARY KEY("offer_id","artwork_id")
);
--> statement-breakpoint
CREATE TABLE "offer_recipients" (
	"gallery_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"added_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_recipients_offer_id_contact_id_pk" PRIMARY KEY("offer_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"message" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"scheduled_at" timestamp(3) with time zone,
	"sent_at" timestamp(3) with time zone,
	"currency" text DEFAULT 'USD' NOT NULL,
	"created_by" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publication_artworks" (
	"gallery_id" text NOT NULL,
	"publication_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publication_artworks_publication_id_artwork_id_pk" PRIMARY KEY("publication_id","artwork_id")
);
--> statement-breakpoint
CREATE TABLE "publication_pricing" (
	"publication_id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"price_visibility" text DEFAULT 'private' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"kind" text DEFAULT 'catalogue' NOT NULL,
	"body" text,
	"cover_image_path" text,
	"published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp(3) with time zone,
	"visibility" text DEFAULT 'private' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"storage_path" text NOT NULL,
	"purpose" text NOT NULL,
	"resource_id" text,
	"member_id" text NOT NULL,
	"content_type" text,
	"max_bytes" integer,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"used_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upload_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "viewing_room_artworks" (
	"gallery_id" text NOT NULL,
	"viewing_room_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"show_price" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "viewing_room_artworks_viewing_room_id_artwork_id_pk" PRIMARY KEY("viewing_room_id","artwork_id")
);
--> statement-breakpoint
CREATE TABLE "viewing_rooms" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"publication_id" text,
	"opens_at" timestamp(3) with time zone,
	"closes_at" timestamp(3) with time zone,
	"published_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "show_artworks" (
	"gallery_id" text NOT NULL,
	"show_id" text NOT NULL,
	"artwork_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "show_artworks_show_id_artwork_id_pk" PRIMARY KEY("show_id","artwork_id")
);
--> statement-breakpoint
CREATE TABLE "show_tags" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"show_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT 'slate' NOT NULL,
	"facet" text NOT NULL,
	"origin" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shows" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"starts_on" date,
	"ends_on" date,
	"status" text DEFAULT 'planned' NOT NULL,
	"venue" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "artists" ADD CONSTRAINT "artists_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_activity_events" ADD CONSTRAINT "artwork_activity_events_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_artists" ADD CONSTRAINT "artwork_artists_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_artists" ADD CONSTRAINT "artwork_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_dimensions" ADD CONSTRAINT "artwork_dimensions_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_drafts" ADD CONSTRAINT "artwork_drafts_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_drafts" ADD CONSTRAINT "artwork_drafts_edited_by_members_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_formats" ADD CONSTRAINT "artwork_formats_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_images" ADD CONSTRAINT "artwork_images_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_tags" ADD CONSTRAINT "artwork_tags_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_tags" ADD CONSTRAINT "artwork_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_versions" ADD CONSTRAINT "artwork_versions_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artworks" ADD CONSTRAINT "artworks_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_records" ADD CONSTRAINT "auction_records_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_statuses" ADD CONSTRAINT "custom_statuses_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_list_memberships" ADD CONSTRAINT "contact_list_memberships_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_list_memberships" ADD CONSTRAINT "contact_list_memberships_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_judgments" ADD CONSTRAINT "rubric_judgments_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collector_profiles" ADD CONSTRAINT "collector_profiles_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_assignees" ADD CONSTRAINT "contact_assignees_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_assignees" ADD CONSTRAINT "contact_assignees_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_events" ADD CONSTRAINT "engagement_events_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_events" ADD CONSTRAINT "engagement_events_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_events" ADD CONSTRAINT "engagement_events_viewing_room_id_viewing_rooms_id_fk" FOREIGN KEY ("viewing_room_id") REFERENCES "public"."viewing_rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_profiles" ADD CONSTRAINT "institution_profiles_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interactions" ADD CONSTRAINT "interactions_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interactions" ADD CONSTRAINT "interactions_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interactions" ADD CONSTRAINT "interactions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_notes" ADD CONSTRAINT "private_notes_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_notes" ADD CONSTRAINT "private_notes_author_id_members_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_members_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_domain_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."domain_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fair_runs" ADD CONSTRAINT "fair_runs_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fair_runs" ADD CONSTRAINT "fair_runs_user_id_members_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD CONSTRAINT "inbox_connections_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_connections" ADD CONSTRAINT "inbox_connections_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_thread_id_inbox_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbox_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_connection_id_inbox_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."inbox_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_assigned_to_members_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_templates" ADD CONSTRAINT "invoice_templates_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_template_id_invoice_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."invoice_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_evidence" ADD CONSTRAINT "match_evidence_match_id_recommendation_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."recommendation_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_match_id_recommendation_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."recommendation_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_feedback" ADD CONSTRAINT "match_feedback_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation_matches" ADD CONSTRAINT "recommendation_matches_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation_matches" ADD CONSTRAINT "recommendation_matches_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation_matches" ADD CONSTRAINT "recommendation_matches_hidden_by_members_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_items" ADD CONSTRAINT "offer_items_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_items" ADD CONSTRAINT "offer_items_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_recipients" ADD CONSTRAINT "offer_recipients_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_recipients" ADD CONSTRAINT "offer_recipients_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_artworks" ADD CONSTRAINT "publication_artworks_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_artworks" ADD CONSTRAINT "publication_artworks_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_pricing" ADD CONSTRAINT "publication_pricing_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_room_artworks" ADD CONSTRAINT "viewing_room_artworks_viewing_room_id_viewing_rooms_id_fk" FOREIGN KEY ("viewing_room_id") REFERENCES "public"."viewing_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_room_artworks" ADD CONSTRAINT "viewing_room_artworks_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_rooms" ADD CONSTRAINT "viewing_rooms_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_rooms" ADD CONSTRAINT "viewing_rooms_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_artworks" ADD CONSTRAINT "show_artworks_show_id_shows_id_fk" FOREIGN KEY ("show_id") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_artworks" ADD CONSTRAINT "show_artworks_artwork_id_artworks_id_fk" FOREIGN KEY ("artwork_id") REFERENCES "public"."artworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "show_tags" ADD CONSTRAINT "show_tags_show_id_shows_id_fk" FOREIGN KEY ("show_id") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shows" ADD CONSTRAINT "shows_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "artists_gallery_created_idx" ON "artists" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "artists_gallery_name_idx" ON "artists" USING btree ("gallery_id","name","id");--> statement-breakpoint
CREATE INDEX "artwork_activity_artwork_idx" ON "artwork_activity_events" USING btree ("gallery_id","artwork_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "artwork_artists_artist_idx" ON "artwork_artists" USING btree ("gallery_id","artist_id");--> statement-breakpoint
CREATE INDEX "artwork_dimensions_artwork_idx" ON "artwork_dimensions" USING btree ("artwork_id","position");--> statement-breakpoint
CREATE INDEX "artwork_formats_artwork_idx" ON "artwork_formats" USING btree ("artwork_id","position","id");--> statement-breakpoint
CREATE INDEX "artwork_images_artwork_idx" ON "artwork_images" USING btree ("artwork_id","position","id");--> statement-breakpoint
CREATE INDEX "artwork_tags_tag_idx" ON "artwork_tags" USING btree ("gallery_id","tag_id","artwork_id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_created_idx" ON "artworks" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_updated_idx" ON "artworks" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_price_idx" ON "artworks" USING btree ("gallery_id",coalesce("price_cents", -1),"id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_year_idx" ON "artworks" USING btree ("gallery_id",coalesce("year", -2147483648),"id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_artist_idx" ON "artworks" USING btree ("gallery_id","artist_id","created_at","id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_availability_idx" ON "artworks" USING btree ("gallery_id","availability_state","created_at","id");--> statement-breakpoint
CREATE INDEX "artworks_gallery_medium_idx" ON "artworks" USING btree ("gallery_id",lower("medium"));--> statement-breakpoint
CREATE INDEX "artworks_search_trgm_idx" ON "artworks" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "artworks_gallery_source_key" ON "artworks" USING btree ("gallery_id","source_system","source_external_id") WHERE "artworks"."source_system" is not null and "artworks"."source_external_id" is not null;--> statement-breakpoint
CREATE INDEX "auction_records_artwork_idx" ON "auction_records" USING btree ("gallery_id","artwork_id","created_at","id");--> statement-breakpoint
CREATE INDEX "custom_statuses_gallery_created_idx" ON "custom_statuses" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "locations_gallery_created_idx" ON "locations" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_gallery_scope_name_key" ON "tags" USING btree ("gallery_id","scope",lower("name"));--> statement-breakpoint
CREATE INDEX "tags_gallery_created_idx" ON "tags" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contact_list_memberships_position_idx" ON "contact_list_memberships" USING btree ("list_id","position","contact_id");--> statement-breakpoint
CREATE INDEX "contact_list_memberships_contact_idx" ON "contact_list_memberships" USING btree ("gallery_id","contact_id");--> statement-breakpoint
CREATE INDEX "contact_lists_gallery_created_idx" ON "contact_lists" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contact_lists_gallery_updated_idx" ON "contact_lists" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "contact_lists_gallery_kind_idx" ON "contact_lists" USING btree ("gallery_id","kind","created_at","id");--> statement-breakpoint
CREATE INDEX "rubric_judgments_true_idx" ON "rubric_judgments" USING btree ("gallery_id","rubric_key","probability","contact_id") WHERE "rubric_judgments"."verdict";--> statement-breakpoint
CREATE INDEX "rubric_judgments_contact_idx" ON "rubric_judgments" USING btree ("gallery_id","contact_id");--> statement-breakpoint
CREATE INDEX "contact_assignees_member_idx" ON "contact_assignees" USING btree ("gallery_id","member_id","contact_id");--> statement-breakpoint
CREATE INDEX "contact_tags_tag_idx" ON "contact_tags" USING btree ("gallery_id","tag_id","contact_id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_created_idx" ON "contacts" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_updated_idx" ON "contacts" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_name_idx" ON "contacts" USING btree ("gallery_id","name","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_type_idx" ON "contacts" USING btree ("gallery_id","contact_type","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_lead_status_idx" ON "contacts" USING btree ("gallery_id","lead_status","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_last_interaction_idx" ON "contacts" USING btree ("gallery_id","last_interaction_at","id");--> statement-breakpoint
CREATE INDEX "contacts_gallery_archived_idx" ON "contacts" USING btree ("gallery_id","archived_at","id") WHERE "contacts"."archived_at" is not null;--> statement-breakpoint
CREATE INDEX "contacts_gallery_email_idx" ON "contacts" USING btree ("gallery_id",lower("email"));--> statement-breakpoint
CREATE INDEX "contacts_search_trgm_idx" ON "contacts" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "engagement_events_kind_idx" ON "engagement_events" USING btree ("gallery_id","kind","occurred_at","contact_id");--> statement-breakpoint
CREATE INDEX "engagement_events_contact_idx" ON "engagement_events" USING btree ("gallery_id","contact_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "interactions_contact_idx" ON "interactions" USING btree ("gallery_id","contact_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "interactions_artwork_idx" ON "interactions" USING btree ("gallery_id","artwork_id","occurred_at","id") WHERE "interactions"."artwork_id" is not null;--> statement-breakpoint
CREATE INDEX "private_notes_contact_idx" ON "private_notes" USING btree ("gallery_id","contact_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sales_gallery_created_idx" ON "sales" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sales_gallery_sold_idx" ON "sales" USING btree ("gallery_id","sold_at","id");--> statement-breakpoint
CREATE INDEX "sales_contact_idx" ON "sales" USING btree ("gallery_id","contact_id","sold_at","id");--> statement-breakpoint
CREATE INDEX "sales_artwork_idx" ON "sales" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE INDEX "tasks_gallery_created_idx" ON "tasks" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_contact_open_idx" ON "tasks" USING btree ("gallery_id","contact_id","due_at","id") WHERE "tasks"."completed_at" is null;--> statement-breakpoint
CREATE INDEX "tasks_assignee_open_idx" ON "tasks" USING btree ("gallery_id","assignee_id","due_at","id") WHERE "tasks"."completed_at" is null;--> statement-breakpoint
CREATE INDEX "domain_events_gallery_created_idx" ON "domain_events" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "domain_events_gallery_type_created_idx" ON "domain_events" USING btree ("gallery_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("gallery_id","endpoint_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "webhook_delivery_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_gallery_created_idx" ON "webhook_endpoints" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fair_runs_gallery_created_idx" ON "fair_runs" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fair_runs_gallery_updated_idx" ON "fair_runs" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "fair_runs_user_idx" ON "fair_runs" USING btree ("gallery_id","user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "api_keys_gallery_created_idx" ON "api_keys" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_email_key" ON "members" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "members_gallery_created_idx" ON "members" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_member_idx" ON "sessions" USING btree ("gallery_id","member_id");--> statement-breakpoint
CREATE INDEX "inbox_connections_member_idx" ON "inbox_connections" USING btree ("gallery_id","member_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_connections_member_address_key" ON "inbox_connections" USING btree ("gallery_id","member_id","channel",lower("address"));--> statement-breakpoint
CREATE INDEX "inbox_messages_thread_idx" ON "inbox_messages" USING btree ("thread_id","sent_at","id");--> statement-breakpoint
CREATE INDEX "inbox_messages_unread_idx" ON "inbox_messages" USING btree ("thread_id") WHERE "inbox_messages"."direction" = 'inbound' and "inbox_messages"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_provider_key" ON "inbox_messages" USING btree ("thread_id","provider_message_id") WHERE "inbox_messages"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX "inbox_threads_member_last_message_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX "inbox_threads_member_created_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inbox_threads_member_state_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","state","last_message_at","id");--> statement-breakpoint
CREATE INDEX "inbox_threads_member_channel_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","channel","last_message_at","id");--> statement-breakpoint
CREATE INDEX "inbox_threads_member_contact_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","contact_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX "inbox_threads_member_unread_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","last_message_at","id") WHERE "inbox_threads"."unread_count" > 0;--> statement-breakpoint
CREATE INDEX "inbox_threads_priority_idx" ON "inbox_threads" USING btree ("gallery_id","member_id","state","triage_expects_reply" DESC NULLS LAST,"triage_urgency_rank","triage_intent_probability" DESC NULLS LAST,"last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "inbox_threads_contact_idx" ON "inbox_threads" USING btree ("gallery_id","contact_id");--> statement-breakpoint
CREATE INDEX "inbox_threads_search_trgm_idx" ON "inbox_threads" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_threads_provider_thread_key" ON "inbox_threads" USING btree ("connection_id","provider_thread_id") WHERE "inbox_threads"."provider_thread_id" is not null;--> statement-breakpoint
CREATE INDEX "invoice_line_items_invoice_idx" ON "invoice_line_items" USING btree ("invoice_id","position","id");--> statement-breakpoint
CREATE INDEX "invoice_line_items_artwork_idx" ON "invoice_line_items" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE INDEX "invoice_templates_gallery_created_idx" ON "invoice_templates" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_templates_gallery_default_key" ON "invoice_templates" USING btree ("gallery_id") WHERE "invoice_templates"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_gallery_number_key" ON "invoices" USING btree ("gallery_id","invoice_number");--> statement-breakpoint
CREATE INDEX "invoices_gallery_created_idx" ON "invoices" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_gallery_updated_idx" ON "invoices" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "invoices_gallery_status_idx" ON "invoices" USING btree ("gallery_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_gallery_due_idx" ON "invoices" USING btree ("gallery_id","due_date","id");--> statement-breakpoint
CREATE INDEX "invoices_sale_idx" ON "invoices" USING btree ("gallery_id","sale_id");--> statement-breakpoint
CREATE INDEX "match_evidence_match_idx" ON "match_evidence" USING btree ("match_id","question","id");--> statement-breakpoint
CREATE INDEX "match_feedback_match_idx" ON "match_feedback" USING btree ("match_id","created_at","id");--> statement-breakpoint
CREATE INDEX "match_feedback_member_idx" ON "match_feedback" USING btree ("gallery_id","member_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recommendation_matches_pair_key" ON "recommendation_matches" USING btree ("gallery_id","artwork_id","contact_id","model");--> statement-breakpoint
CREATE INDEX "recommendation_matches_contact_idx" ON "recommendation_matches" USING btree ("gallery_id","contact_id","probability","id");--> statement-breakpoint
CREATE INDEX "recommendation_matches_artwork_idx" ON "recommendation_matches" USING btree ("gallery_id","artwork_id","probability","id");--> statement-breakpoint
CREATE INDEX "offer_items_position_idx" ON "offer_items" USING btree ("offer_id","position","artwork_id");--> statement-breakpoint
CREATE INDEX "offer_items_artwork_idx" ON "offer_items" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE INDEX "offer_recipients_contact_idx" ON "offer_recipients" USING btree ("gallery_id","contact_id");--> statement-breakpoint
CREATE INDEX "offers_gallery_created_idx" ON "offers" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "offers_gallery_updated_idx" ON "offers" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "offers_gallery_status_idx" ON "offers" USING btree ("gallery_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "offers_scheduled_due_idx" ON "offers" USING btree ("scheduled_at") WHERE "offers"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "publication_artworks_position_idx" ON "publication_artworks" USING btree ("publication_id","position","artwork_id");--> statement-breakpoint
CREATE INDEX "publication_artworks_artwork_idx" ON "publication_artworks" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE UNIQUE INDEX "publications_gallery_slug_key" ON "publications" USING btree ("gallery_id","slug");--> statement-breakpoint
CREATE INDEX "publications_gallery_created_idx" ON "publications" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "publications_gallery_updated_idx" ON "publications" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "publications_gallery_published_idx" ON "publications" USING btree ("gallery_id","published_at","id") WHERE "publications"."published";--> statement-breakpoint
CREATE INDEX "upload_tokens_expires_idx" ON "upload_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "viewing_room_artworks_position_idx" ON "viewing_room_artworks" USING btree ("viewing_room_id","position","artwork_id");--> statement-breakpoint
CREATE INDEX "viewing_room_artworks_artwork_idx" ON "viewing_room_artworks" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE UNIQUE INDEX "viewing_rooms_gallery_slug_key" ON "viewing_rooms" USING btree ("gallery_id","slug");--> statement-breakpoint
CREATE INDEX "viewing_rooms_gallery_created_idx" ON "viewing_rooms" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "viewing_rooms_gallery_updated_idx" ON "viewing_rooms" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "viewing_rooms_public_idx" ON "viewing_rooms" USING btree ("gallery_id","created_at","id") WHERE "viewing_rooms"."visibility" = 'public';--> statement-breakpoint
CREATE INDEX "show_artworks_position_idx" ON "show_artworks" USING btree ("show_id","position","artwork_id");--> statement-breakpoint
CREATE INDEX "show_artworks_artwork_idx" ON "show_artworks" USING btree ("gallery_id","artwork_id");--> statement-breakpoint
CREATE UNIQUE INDEX "show_tags_show_name_key" ON "show_tags" USING btree ("show_id",lower("name"));--> statement-breakpoint
CREATE INDEX "show_tags_show_order_idx" ON "show_tags" USING btree ("show_id","name","id");--> statement-breakpoint
CREATE INDEX "shows_gallery_created_idx" ON "shows" USING btree ("gallery_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shows_gallery_updated_idx" ON "shows" USING btree ("gallery_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "shows_gallery_starts_idx" ON "shows" USING btree ("gallery_id","starts_on","id");