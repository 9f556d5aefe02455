import { z } from "@hono/zod-openapi";
import { emailAddress, idString } from "../params";
import { TimestampOut } from "../time";
import { metadata } from "./artworks";
import { described } from "./describe";

/** The complete value sets of the CRM. */
export const contactTypes = [
  "collector",
  "institution",
  "consignor",
  "lender",
  "advisor",
  "press",
  "other",
] as const;
export const leadStatuses = ["new", "active", "engaged", "dormant", "closed"] as const;
/**
 * Where the contact is in the editor's flow: `new` until someone saves it as reviewed, `draft` while an editor
 * has it half-entered, `saved` once reviewed. Informational: no rule reads it.
 */
export const contactSaveStates = ["new", "draft", "saved"] as const;
/** Marketing consent, set by the gallery (or its mailing tool); `do_not_email` is the hard stop beside it. */
export const emailConsents = ["pending", "granted", "declined", "unsubscribed"] as const;
/**
 * The band of the contact's average acquisition (total spend / works acquired, in the gallery's default
 * currency): under_5k below 5,000.00, 5k_25k from 5,000.00 below 25,000.00, 25k_100k from 25,000.00 below
 * 100,000.00, over_100k from 100,000.00. Null for a contact with no completed purchase.
 */
export const priceBands = ["under_5k", "5k_25k", "25k_100k", "over_100k"] as const;
/** Engagement event kinds: the spec's `engaged_event` values. */
export const engagementKinds = [
  "session_started",
  "room_opened",
  "artwork_viewed",
  "document_viewed",
  "email_opened",
  "link_clicked",
  "inquiry_submitted",
  "unsubscribed",
  "favorite_added",
  "favorite_removed",
  "waitlist_joined",
  "waitlist_notified",
  "checkout_started",
  "purchase_completed",
  "drop_entered",
  "drop_allocated",
  "drop_claimed",
] as const;
export const interactionTypes = [
  "note",
  "call",
  "email",
  "meeting",
  "visit",
  "message",
  "viewing",
  "event",
  "other",
] as const;
export const interactionDirections = ["inbound", "outbound"] as const;
export const contactListKinds = ["pipeline", "segment", "mailing"] as const;

/** The probability at or above which a judgment counts (judged_rubric, matches, recommended recipients). */
export const VISIBLE_FLOOR = 0.6;

const text = (max: number) => z.string().max(max);

/** What each collector profile field means, shared by the profile and its input. */
const collectorProfileTexts = {
  collecting_focus:
    "What they collect, in the gallery's words (`Post-war abstraction, works on paper`); the matcher reads it as evidence for their matches.",
  budget_band:
    "Their budget as the gallery states it: when it is a price band (`under_5k`, `5k_25k`, `25k_100k`, `over_100k`), the matcher reads it for the price question; other text is kept as a note.",
  wishlist_notes:
    "The works or artists they are looking for, as the gallery notes them; the matcher reads them as evidence for their matches.",
  preferred_contact_method:
    "How they like to be reached (`email`, `phone`, `WhatsApp`), free text; no rule reads it.",
  vip: "Whether the gallery counts them among its most important collectors: shown in the contact's recap, and a segment described as VIP collectors selects on it.",
  tax_exempt:
    "Whether they are exempt from sales tax (a resale certificate, say): recorded for the gallery, not applied by the API (an invoice's `taxability_override` sets its tax).",
} as const;

/** What each institution profile field means, shared by the profile and its input. */
const institutionProfileTexts = {
  institution_kind: "What kind of institution, free text (`museum`, `foundation`, `corporate collection`).",
  acquisition_process:
    "How the institution acquires works (committees and their dates, approvals, paperwork), as the gallery notes it.",
  primary_contact_name: "The person the gallery deals with there (a curator, a registrar).",
  tax_exempt:
    "Whether the institution is exempt from sales tax (a museum, say): recorded for the gallery, not applied by the API (an invoice's `taxability_override` sets its tax).",
} as const;

export const CollectorProfile = z
  .object(
    described(
      {
        collecting_focus: z.string().nullable(),
        budget_band: z.string().nullable(),
        wishlist_notes: z.string().nullable(),
        preferred_contact_method: z.string().nullable(),
        vip: z.boolean(),
        tax_exempt: z.boolean(),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      collectorProfileTexts,
    ),
  )
  .openapi("CollectorProfile");

export const InstitutionProfile = z
  .object(
    described(
      {
        institution_kind: z.string().nullable(),
        acquisition_process: z.string().nullable(),
        primary_contact_name: z.string().nullable(),
        tax_exempt: z.boolean(),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      institutionProfileTexts,
    ),
  )
  .openapi("InstitutionProfile");

/** What each contact field means, shared by the contact and its create and update bodies. */
const contactTexts = {
  name: "The person's or organisation's name as the gallery addresses them.",
  company: "The company or institution the person is with.",
  email: "The contact's email address, trimmed and lower-cased; no two unarchived contacts share one.",
  phone: "The contact's phone number, as given.",
  notes: "The gallery's shared notes about the contact (a member's private notes are a read of their own).",
  form_of_address: "How letters address them (`Dr. Moreau`, `Ms Berg`).",
  contact_type: "What kind of contact: collector, institution, consignor, lender, advisor, press or other.",
  assignee_ids: "Members of the gallery responsible for the contact (`mem_…`), in order.",
  last_interaction_at: "When the newest recorded interaction took place; null before any.",
  last_interaction_type: "The kind of the newest recorded interaction (call, email, meeting, visit, …).",
  lead_status: "The stage of the sales relationship: `new`, `active`, `engaged`, `dormant` or `closed`.",
  do_not_email: "The hard stop on email: the contact is not to be emailed, whatever `email_consent` says.",
  email_consent:
    "Their consent to marketing email: `pending` (no answer yet), `granted`, `declined` or `unsubscribed`; `do_not_email` overrides it.",
  save_state:
    "Where the contact is in the editor's flow: `new`, `draft` (half-entered) or `saved` (reviewed); no rule reads it.",
  custom_fields: "The gallery's own fields for contacts, by name, with any JSON value.",
  collector_profile:
    "What the gallery knows of them as a collector (focus, budget, wishlist); null when none.",
  institution_profile:
    "What the gallery knows of them as an institution (kind, acquisition process); null when none.",
  metadata:
    "Your own string keys (1 to 40 characters) and values (at most 500), at most 50 keys: stored and returned as given, never read by the API.",
} as const;

const { email: _email, ...contactReadTexts } = contactTexts;

export const Contact = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "con_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        name: z.string(),
        company: z.string().nullable(),
        email: z.string().nullable().openapi({ description: "Trimmed and lower-cased when written." }),
        phone: z.string().nullable(),
        notes: z.string().nullable(),
        form_of_address: z.string().nullable(),
        contact_type: z.enum(contactTypes),
        assignee_ids: z.array(z.string()),
        last_interaction_at: TimestampOut.nullable(),
        last_interaction_type: z.enum(interactionTypes).nullable(),
        lead_status: z.enum(leadStatuses),
        do_not_email: z.boolean(),
        archived_at: TimestampOut.nullable(),
        save_state: z.enum(contactSaveStates),
        custom_fields: z.record(z.string(), z.unknown()),
        collector_profile: CollectorProfile.nullable(),
        institution_profile: InstitutionProfile.nullable(),
        metadata: z.record(z.string(), z.string()),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      contactReadTexts,
    ),
  )
  .openapi("Contact", {
    description:
      "Exactly the specification's fields. What the roster's filters match beyond them (tags, email consent, spend and price band, last engagement) is read at GET /gallery/contacts/{id}/segmentation.",
  });

/**
 * What the roster's filters and dynamic lists match a contact on, beyond the Contact's own fields: a read of its
 * own, since the specification's Contact lists exactly what it exposes. Written through the Contact's create and
 * update (`tag_ids`, `email_consent`) or kept by Postgres from sales and engagement events.
 */
export const ContactSegmentation = z
  .object({
    contact_id: z.string(),
    tag_ids: z
      .array(z.string())
      .openapi({ description: "Tags of scope `contact`, in the order they were added." }),
    email_consent: z.enum(emailConsents).openapi({ description: contactTexts.email_consent }),
    total_spend_cents: z.number().int().openapi({
      description:
        "The sum of the contact's completed sales, in minor units (cents) of `currency` (the gallery's default currency).",
    }),
    works_acquired: z.number().int().openapi({
      description: "How many works the contact bought in completed sales, kept by Postgres from the sales.",
    }),
    avg_acquisition_cents: z.number().int().nullable().openapi({
      description: "total_spend_cents / works_acquired, rounded half away from zero; null without purchases.",
    }),
    price_band: z.enum(priceBands).nullable().openapi({
      description:
        "The band of avg_acquisition_cents: under_5k (< 500000), 5k_25k (< 2500000), 25k_100k (< 10000000), over_100k; null without purchases.",
    }),
    currency: z.string().openapi({ description: "The currency of the spend fields." }),
    last_engaged_at: TimestampOut.nullable().openapi({
      description: "The newest engagement event of any kind; null when the contact never engaged.",
    }),
  })
  .openapi("ContactSegmentation");

const uniqueIds = (prefix: string, max: number, what: string) =>
  z
    .array(idString(prefix))
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: `lists a ${what} twice` });

/** `map of string to any value`: at most 50 keys of 1 to 40 characters, at most 16 KB as JSON. */
const customFields = z
  .record(z.string().min(1).max(40), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, { message: "holds at most 50 keys" })
  .refine((m) => JSON.stringify(m).length <= 16_384, { message: "is larger than 16 KB as JSON" })
  .openapi({
    description: "Any JSON values under string keys (1 to 40 characters); at most 50 keys, 16 KB.",
  });

export const CollectorProfileInput = z
  .strictObject(
    described(
      {
        collecting_focus: text(500).nullable(),
        budget_band: text(100).nullable(),
        wishlist_notes: text(5000).nullable(),
        preferred_contact_method: text(100).nullable(),
        vip: z.boolean(),
        tax_exempt: z.boolean(),
      },
      collectorProfileTexts,
    ),
  )
  .partial()
  .openapi("CollectorProfileInput");

export const InstitutionProfileInput = z
  .strictObject(
    described(
      {
        institution_kind: text(200).nullable(),
        acquisition_process: text(5000).nullable(),
        primary_contact_name: text(200).nullable(),
        tax_exempt: z.boolean(),
      },
      institutionProfileTexts,
    ),
  )
  .partial()
  .openapi("InstitutionProfileInput");

/** Fields a caller may write, shared by create and update. */
const {
  assignee_ids: _assignees,
  collector_profile: _collector,
  institution_profile: _institution,
  ...contactWriteTexts
} = contactTexts;

const writableFields = described(
  {
    name: z.string().trim().min(1).max(200),
    company: text(200).nullable(),
    email: emailAddress().nullable(),
    phone: text(50).nullable(),
    notes: text(20_000).nullable(),
    form_of_address: text(100).nullable(),
    contact_type: z.enum(contactTypes),
    lead_status: z.enum(leadStatuses),
    do_not_email: z.boolean(),
    email_consent: z.enum(emailConsents),
    save_state: z.enum(contactSaveStates),
    assignee_ids: uniqueIds("mem", 20, "member").openapi({
      description: "Members of the gallery responsible for the contact, in order; replaces the set.",
    }),
    tag_ids: uniqueIds("tag", 50, "tag").openapi({
      description: "Tags of scope `contact`; replaces the set.",
    }),
    custom_fields: customFields,
    collector_profile: CollectorProfileInput.nullable().openapi({
      description: "Merged into the stored profile (created when absent); null removes it.",
    }),
    institution_profile: InstitutionProfileInput.nullable().openapi({
      description: "Merged into the stored profile (created when absent); null removes it.",
    }),
    metadata,
  },
  contactWriteTexts,
);

export const ContactCreate = z
  .strictObject(writableFields)
  .partial()
  .required({ name: true })
  .openapi("ContactCreate");
export const ContactUpdate = z.strictObject(writableFields).partial().openapi("ContactUpdate");
export type ContactCreateInput = z.infer<typeof ContactCreate>;
export type ContactUpdateInput = z.infer<typeof ContactUpdate>;

export const ContactIdParams = z.strictObject({
  id: idString("con").openapi({ param: { name: "id", in: "path" } }),
});
