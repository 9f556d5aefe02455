CREATE TABLE "invoice_payment_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"amount_paid_cents" bigint NOT NULL,
	"created_by" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_payment_reversals_amount_check" CHECK (amount_cents > 0 AND amount_paid_cents >= 0),
	CONSTRAINT "invoice_payment_reversals_reason_check" CHECK (reason IN ('refund', 'error', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "invoice_payment_reversals" ADD CONSTRAINT "invoice_payment_reversals_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payment_reversals" ADD CONSTRAINT "invoice_payment_reversals_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payment_reversals_invoice_idx" ON "invoice_payment_reversals" USING btree ("invoice_id","created_at","id");