/**
 * What the demo data must hold for the API to serve it as it would serve its own writes. Run on the seeded
 * gallery before the seed's transaction commits: a violation aborts the seed, naming the rule and a few rows.
 */
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { type ContactListFilters, contactConditions, contactWhere } from "../../db/queries/contact-filters";
import { recommendedRecipientsQuery } from "../../db/queries/offers";
import { MATCH_FEEDBACK_ACTIONS } from "../../lib/engine/types";
import { formatWritableFields } from "../../lib/schemas/artwork-formats";
import { artworkActivityTypes } from "../../lib/schemas/artwork-timeline";
import { ArtworkUpdate, type InheritableField, inheritableFields } from "../../lib/schemas/artworks";
import { auctionResults } from "../../lib/schemas/auction-records";
import { ContactListQuery } from "../../lib/schemas/contact-filters";
import {
  contactListKinds,
  contactSaveStates,
  contactTypes,
  emailConsents,
  engagementKinds,
  interactionDirections,
  interactionTypes,
  leadStatuses,
  priceBands,
} from "../../lib/schemas/contacts";
import { fairRunStatuses } from "../../lib/schemas/fair-runs";
import {
  inboxChannels,
  messageDirections,
  threadStates,
  triageIntents,
  triageUrgencies,
} from "../../lib/schemas/inbox";
import { invoiceStatuses, paymentMethods, taxabilityOverrides } from "../../lib/schemas/invoices";
import { matchStatuses } from "../../lib/schemas/matches";
import {
  MAX_OFFER_ITEMS,
  MAX_RECIPIENTS_ADDED,
  MAX_RECOMMENDED,
  OfferCreate,
  OfferIdParams,
  OfferItemsReplace,
  OfferRecipientsAdd,
  offerRecipientStatuses,
  offerStatuses,
  RECOMMENDATION_FLOOR,
} from "../../lib/schemas/offers";
import {
  MAX_ARTWORKS_PER_PUBLICATION,
  MAX_SLUG_LENGTH,
  PublicationCreate,
  PublicationIdParams,
  PublicationUpdate,
  priceVisibilities,
  publicationKinds,
  publicationVisibilities,
  SLUG,
} from "../../lib/schemas/publications";
import {
  MAX_ARTWORKS_PER_SHOW,
  MAX_TAGS_PER_SHOW,
  ShowCreate,
  ShowIdParams,
  ShowTagCreate,
  ShowTagParams,
  showStatuses,
  showTagColors,
  showTagFacets,
  showTagOrigins,
} from "../../lib/schemas/shows";
import { STORAGE_PATH_SHAPE } from "../../lib/schemas/uploads";
import type { LocalBucket } from "../wrangler";
import { BASE, DAY, isoDate } from "./common";
import { missingPictures } from "./images";
import { SHOWCASE_HIDDEN_UNTIL } from "./matches";

const textArray = (items: readonly string[]) => `array[${items.map((i) => `'${i}'`).join(", ")}]::text[]`;

/** Whether an address on a channel is stored as ingest stores it (e164() is migration 0008's twin of lib's). */
const normalised = (channel: string, address: string) =>
  `(case when ${channel} = 'email' then ${address} = lower(btrim(${address})) and ${address} like '%_@_%'
    else ${address} = e164(${address}) end)`;

/** How an edition's value of each inheritable field compares with its parent's (`c` the edition, `p` the parent). */
const credits = (alias: string) =>
  `(select array_agg(aa.artist_id || ':' || aa.role || ':' || aa.position order by aa.position)
    from artwork_artists aa where aa.artwork_id = ${alias}.id)`;
const differs: Record<InheritableField, string> = {
  ...(Object.fromEntries(inheritableFields.map((f) => [f, `c.${f} is distinct from p.${f}`])) as Record<
    InheritableField,
    string
  >),
  artists: `c.artist_id is distinct from p.artist_id or c.artist_name is distinct from p.artist_name
    or ${credits("c")} is distinct from ${credits("p")}`,
};

/** The works of a list (`table`'s rows keyed by `owner`) that break the API's rules for an ordered list of works. */
const orderedWorks = (table: string, owner: string, max: number) =>
  `select x.${owner} as id from ${table} x left join artworks a on a.id = x.artwork_id and a.gallery_id = x.gallery_id
    where x.gallery_id = $1 group by x.${owner}
    having count(a.id) <> count(*) or count(*) > ${max}
      or min(x.position) <> 0 or max(x.position) <> count(*) - 1 or count(distinct x.position) <> count(*)`;

/** The seed's clock as a calendar day. */
const BASE_DAY = isoDate(BASE);

/** Each rule selects the offending rows' ids (`id`) of gallery $1. */
export const DEMO_INVARIANTS: readonly { rule: string; sql: string }[] = [
  {
    rule: "a work has a draft row exactly when its save_state is draft",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and exists (select 1 from artwork_drafts d where d.artwork_id = a.id) <> (a.save_state = 'draft')`,
  },
  {
    rule: "a format with a pending change belongs to a work with a draft",
    sql: `select f.id from artwork_formats f where f.gallery_id = $1
      and (f.pending is not null or f.pending_action is not null)
      and not exists (select 1 from artwork_drafts d where d.artwork_id = f.artwork_id)`,
  },
  {
    rule: "pending_action is create, delete or null",
    sql: `select id from artwork_formats where gallery_id = $1 and pending_action not in ('create', 'delete')`,
  },
  {
    rule: "a never-published work is new, without published_at, published_version or versions",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and ((a.save_state = 'new') <> (a.published_at is null)
        or a.save_state = 'new' and (a.published_version is not null
          or exists (select 1 from artwork_versions v where v.artwork_id = a.id)))`,
  },
  {
    rule: "a draft's patch and a format's pending values name fields a write takes",
    sql: `select d.artwork_id as id from artwork_drafts d where d.gallery_id = $1
        and not array(select jsonb_object_keys(d.patch)) <@ ${textArray(Object.keys(ArtworkUpdate.shape))}
      union all
      select f.id from artwork_formats f where f.gallery_id = $1 and f.pending is not null
        and not array(select jsonb_object_keys(f.pending)) <@ ${textArray(formatWritableFields)}`,
  },
  {
    rule: "a published work has published_version ≥ 1 and versions 1..published_version, the last at published_at",
    sql: `select a.id from artworks a where a.gallery_id = $1 and a.save_state in ('published', 'draft')
      and (a.published_version is null or a.published_version < 1
        or (select count(*) from artwork_versions v where v.artwork_id = a.id) <> a.published_version
        or not exists (select 1 from artwork_versions v where v.artwork_id = a.id
          and v.version = a.published_version and v.published_at = a.published_at))`,
  },
  {
    rule: "an edition with a parent is numbered within its edition size, and its parent is no edition",
    sql: `select c.id from artworks c left join artworks p on p.id = c.parent_artwork_id and p.gallery_id = c.gallery_id
      where c.gallery_id = $1 and c.parent_artwork_id is not null
        and (p.id is null or p.is_edition or not c.is_edition or c.edition_number is null
          or c.edition_size is null or c.edition_number > c.edition_size)`,
  },
  {
    rule: "edition_number ≤ edition_size",
    sql: `select id from artworks where gallery_id = $1 and edition_number > edition_size`,
  },
  {
    rule: "edition_overrides names inheritable fields only",
    sql: `select id from artworks where gallery_id = $1
      and not edition_overrides <@ ${textArray(inheritableFields)}`,
  },
  {
    rule: "an edition shows its parent's value of every inheritable field it does not override",
    sql: `select c.id || ' (' || f.field || ')' as id
      from artworks c join artworks p on p.id = c.parent_artwork_id
      cross join lateral (values ${inheritableFields.map((f) => `('${f}', ${differs[f]})`).join(", ")}) f(field, differs)
      where c.gallery_id = $1 and not (f.field = any(c.edition_overrides)) and f.differs`,
  },
  {
    rule: "image_count and thumbnail_url agree with the image rows",
    sql: `select a.id from artworks a where a.gallery_id = $1
      and (a.image_count <> (select count(*) from artwork_images i where i.artwork_id = a.id)
        or a.thumbnail_url is distinct from
          (select i.url from artwork_images i where i.artwork_id = a.id order by i.position, i.id limit 1))`,
  },
  {
    rule: "an image is stored where its upload would be (under its work's folder, named by its id) and served from there, with its pixels, bytes and type known",
    sql: `select id from artwork_images where gallery_id = $1
      and (storage_path !~ '${STORAGE_PATH_SHAPE.source}'
        or storage_path not like 'galleries/' || gallery_id || '/artworks/' || artwork_id || '/' || id || '.%'
        or url not like '%/v1/assets/' || storage_path
        or not (width > 0 and height > 0 and size_bytes > 0) or content_type is distinct from 'image/jpeg')`,
  },
  {
    rule: "every work in a viewing room has a picture",
    sql: `select r.viewing_room_id || ' ' || r.artwork_id as id from viewing_room_artworks r
      join artworks a on a.id = r.artwork_id where r.gallery_id = $1 and a.thumbnail_url is null`,
  },
  {
    rule: "auction records have a sale date, a known result, and no hammer price unless offered",
    sql: `select id from auction_records where gallery_id = $1
      and (sale_date is null or not result = any(${textArray(auctionResults)})
        or (hammer_price_cents is not null and result in ('withdrawn', 'postponed')))`,
  },
  {
    rule: "a draft's credited artists are artists of the gallery",
    sql: `select d.artwork_id as id from artwork_drafts d
      cross join lateral jsonb_array_elements(case when jsonb_typeof(d.patch->'artists') = 'array'
        then d.patch->'artists' else '[]'::jsonb end) x
      where d.gallery_id = $1
        and not exists (select 1 from artists ar where ar.id = x->>'artist_id' and ar.gallery_id = d.gallery_id)`,
  },
  {
    rule: "timeline entries are of the kinds the API serves",
    sql: `select id::text from artwork_activity_events where gallery_id = $1
      and not event_type = any(${textArray(artworkActivityTypes)})`,
  },
  {
    rule: "timeline entries lie between the work's creation and its last update",
    sql: `select e.id || ' (' || e.event_type || ')' as id from artwork_activity_events e join artworks a on a.id = e.artwork_id
      where e.gallery_id = $1 and (e.occurred_at < a.created_at or e.occurred_at > a.updated_at)`,
  },
  // The CRM. The kept aggregates are written by the database's triggers; each is checked against a
  // recomputation from the rows it summarises.
  {
    rule: "a contact's total_spend_cents and works_acquired are the sums over its completed sales",
    sql: `select c.id from contacts c
      left join (select contact_id, sum(base_amount_cents) as total, sum(works_count) as works from sales
        where gallery_id = $1 and status = 'completed' group by contact_id) s on s.contact_id = c.id
      where c.gallery_id = $1 and (c.total_spend_cents <> coalesce(s.total, 0) or c.works_acquired <> coalesce(s.works, 0))`,
  },
  {
    rule: "a contact's last_interaction_at and _type are its newest interaction's",
    sql: `select c.id from contacts c
      left join lateral (select i.occurred_at, i.type from interactions i where i.contact_id = c.id
        order by i.occurred_at desc, i.created_at desc, i.id desc limit 1) i on true
      where c.gallery_id = $1 and (c.last_interaction_at is distinct from i.occurred_at
        or c.last_interaction_type is distinct from i.type)`,
  },
  {
    rule: "a contact's last_engaged_at is its newest engagement event's time",
    sql: `select c.id from contacts c where c.gallery_id = $1 and c.last_engaged_at is distinct from
      (select max(e.occurred_at) from engagement_events e where e.contact_id = c.id)`,
  },
  {
    rule: "contact_engagement holds exactly the newest engagement of each kind per contact",
    sql: `select coalesce(ce.contact_id, e.contact_id) || ' (' || coalesce(ce.kind, e.kind) || ')' as id
      from (select * from contact_engagement where gallery_id = $1) ce
      full join (select contact_id, kind, max(occurred_at) as last_at from engagement_events
        where gallery_id = $1 group by contact_id, kind) e on e.contact_id = ce.contact_id and e.kind = ce.kind
      where ce.last_at is distinct from e.last_at`,
  },
  {
    rule: "a contact's email is stored trimmed and lower-cased",
    sql: `select id from contacts where gallery_id = $1 and (email <> lower(btrim(email)) or email = '')`,
  },
  {
    rule: "contact, interaction and engagement values are of the API's sets",
    sql: `select id from contacts where gallery_id = $1 and not (contact_type = any(${textArray(contactTypes)})
        and lead_status = any(${textArray(leadStatuses)}) and email_consent = any(${textArray(emailConsents)})
        and save_state = any(${textArray(contactSaveStates)}))
      union all
      select id from interactions where gallery_id = $1 and (not type = any(${textArray(interactionTypes)})
        or direction is not null and not direction = any(${textArray(interactionDirections)}))
      union all
      select id from engagement_events where gallery_id = $1 and not kind = any(${textArray(engagementKinds)})
      union all
      select id from contact_lists where gallery_id = $1 and (not kind = any(${textArray(contactListKinds)})
        or is_dynamic <> (dynamic_query is not null))`,
  },
  {
    rule: "a sale counts at least its catalogued works, and its base amount is its amount in the default currency",
    sql: `select s.id from sales s join galleries g on g.id = s.gallery_id where s.gallery_id = $1
      and (s.works_count < greatest(1, (select count(*) from sale_artworks sa where sa.sale_id = s.id))
        or s.currency = g.default_currency and s.base_amount_cents <> s.amount_cents)`,
  },
  {
    rule: "a sale's works are works of its gallery, each sold once",
    sql: `select sa.sale_id as id from sale_artworks sa join sales s on s.id = sa.sale_id
        left join artworks a on a.id = sa.artwork_id and a.gallery_id = s.gallery_id
      where s.gallery_id = $1 and (a.id is null or sa.gallery_id <> s.gallery_id)
      union all
      select min(sa.sale_id) from sale_artworks sa join sales s on s.id = sa.sale_id
      where s.gallery_id = $1 and s.status = 'completed' group by sa.artwork_id having count(*) > 1`,
  },
  // The inbox: what ingest and mark-read keep on a thread, recomputed from its messages.
  {
    rule: "a thread's unread_count is the number of its inbound messages with read_at null",
    sql: `select t.id from inbox_threads t where t.gallery_id = $1 and t.unread_count <> (select count(*)
      from inbox_messages m where m.thread_id = t.id and m.direction = 'inbound' and m.read_at is null)`,
  },
  {
    rule: "a thread's last_from, last_snippet and last_message_at are its newest message's",
    sql: `select t.id from inbox_threads t
      left join lateral (select coalesce(m.from_name, m.from_address) as last_from, m.snippet, m.sent_at
        from inbox_messages m where m.thread_id = t.id order by m.sent_at desc, m.id desc limit 1) m on true
      where t.gallery_id = $1 and (m.sent_at is null or t.last_message_at <> m.sent_at
        or t.last_from is distinct from m.last_from or t.last_snippet is distinct from m.snippet)`,
  },
  {
    rule: "a message's snippet is its body with whitespace collapsed, cut to 200 characters",
    sql: `select id from inbox_messages where gallery_id = $1
      and snippet is distinct from left(btrim(regexp_replace(body, '\\s+', ' ', 'g')), 200)`,
  },
  {
    rule: "messages are inbound or outbound, and only inbound ones are ever read",
    sql: `select id from inbox_messages where gallery_id = $1
      and (not direction = any(${textArray(messageDirections)}) or direction = 'outbound' and read_at is not null)`,
  },
  {
    rule: "a thread belongs to its connection's member and has its channel; connections are email, whatsapp or sms",
    sql: `select t.id from inbox_threads t join inbox_connections c on c.id = t.connection_id
      where t.gallery_id = $1 and (t.member_id <> c.member_id or t.channel <> c.channel or c.gallery_id <> t.gallery_id)
      union all
      select id::text from inbox_connections where gallery_id = $1 and not channel = any(${textArray(inboxChannels)})`,
  },
  {
    rule: "addresses are normalised: an email trimmed and lower-cased, a phone in E.164",
    sql: `select id::text from inbox_connections where gallery_id = $1 and not ${normalised("channel", "address")}
      union all
      select id from inbox_threads where gallery_id = $1 and not ${normalised("channel", "counterpart_address")}`,
  },
  {
    rule: "a thread's contact is the one its address matches (unarchived first, then the newest), named as it is",
    sql: `select t.id from inbox_threads t
      left join lateral (select c.id, c.name from contacts c where c.gallery_id = t.gallery_id
          and case when t.channel = 'email' then c.email = t.counterpart_address
            else e164(c.phone) = t.counterpart_address end
        order by c.archived_at is not null, c.created_at desc, c.id desc limit 1) c on true
      where t.gallery_id = $1 and (t.contact_id is distinct from c.id
        or c.id is not null and t.contact_name is distinct from c.name)`,
  },
  {
    rule: "a thread is open, snoozed (with snooze_until) or done (without), assigned to a member of its gallery",
    sql: `select t.id from inbox_threads t left join members m on m.id = t.assigned_to and m.gallery_id = t.gallery_id
      where t.gallery_id = $1 and (not t.state = any(${textArray(threadStates)})
        or (t.state = 'snoozed') <> (t.snooze_until is not null)
        or t.assigned_to is not null and m.id is null)`,
  },
  {
    rule: "triage values are of design §3's sets, its numbers within 0..1, triaged_at set exactly when the engine ran",
    sql: `select id from inbox_threads where gallery_id = $1 and (
        not coalesce(triage_intent = any(${textArray(triageIntents)}), true)
        or not coalesce(triage_corrected_intent = any(${textArray(triageIntents)}), true)
        or not coalesce(triage_urgency = any(${textArray(triageUrgencies)}), true)
        or not coalesce(least(triage_intent_probability, triage_urgency_probability, triage_expects_reply,
          triage_escalating) >= 0 and greatest(triage_intent_probability, triage_urgency_probability,
          triage_expects_reply, triage_escalating) <= 1, true)
        or (triaged_at is not null) <> (triage_intent is not null or triage_urgency is not null
          or triage_intent_probability is not null or triage_urgency_probability is not null
          or triage_expects_reply is not null or triage_escalating is not null))`,
  },
  {
    rule: "provider thread and message ids are set, each message id once per connection",
    sql: `select id from inbox_threads where gallery_id = $1 and provider_thread_id is null
      union all
      select id from inbox_messages where gallery_id = $1 and provider_message_id is null
      union all
      select min(m.id) from inbox_messages m join inbox_threads t on t.id = m.thread_id
      where m.gallery_id = $1 group by t.connection_id, m.provider_message_id having count(*) > 1`,
  },
  // Invoices: the money as the API computes it, and the numbering.
  {
    rule: "an invoice's status is of the API's set, and amount_paid_cents agrees with it",
    sql: `select id from invoices where gallery_id = $1 and not status = any(${textArray(invoiceStatuses)})
      union all
      select id from invoices where gallery_id = $1 and not (
        status in ('draft', 'unpaid', 'void') and amount_paid_cents = 0
        or status = 'partially_paid' and amount_paid_cents > 0 and amount_paid_cents < total_cents
        or status = 'paid' and amount_paid_cents = total_cents)`,
  },
  {
    rule: "total = subtotal − discount + tax + shipping + shipping tax, the discount from basis points rounded half up",
    sql: `select id from invoices where gallery_id = $1 and (
        total_cents <> subtotal_cents - discount_cents + tax_cents + shipping_cents + shipping_tax_cents
        or total_cents < 0
        or discount_bps <> 0 and discount_cents <> floor(subtotal_cents::numeric * discount_bps / 10000 + 0.5))`,
  },
  {
    rule: "base_amount_cents is the total in the gallery's currency: equal to it, or converted and rounded half away from zero",
    sql: `select i.id from invoices i join galleries g on g.id = i.gallery_id where i.gallery_id = $1 and (
        i.fx_base_currency is distinct from g.default_currency
        or i.currency = i.fx_base_currency and i.base_amount_cents is distinct from i.total_cents
        or i.currency <> i.fx_base_currency and (i.fx_usd_per_unit is null or i.fx_base_usd_per_unit is null
          or i.base_amount_cents is distinct from
            round(i.total_cents * i.fx_usd_per_unit::numeric / i.fx_base_usd_per_unit::numeric)))`,
  },
  {
    rule: "invoice numbers are INV-000001… in creation order, and the gallery's sequence stands at the last",
    sql: `select id from (select id, invoice_number,
          'INV-' || lpad((row_number() over (order by created_at, id))::text, 6, '0') as expected
        from invoices where gallery_id = $1) n where invoice_number <> expected
      union all
      select g.id from galleries g left join invoice_sequences s on s.gallery_id = g.id where g.id = $1
        and coalesce(s.last_number, 0) <> (select count(*) from invoices i where i.gallery_id = g.id)`,
  },
  {
    rule: "an invoice of a sale bills its buyer; an issued invoice has its issued date, and due_date ≥ issued_date",
    sql: `select i.id from invoices i left join sales s on s.id = i.sale_id where i.gallery_id = $1 and (
        i.sale_id is not null and (s.id is null or s.gallery_id <> i.gallery_id or i.contact_id is distinct from s.contact_id)
        or i.status <> 'draft' and i.issued_date is null
        or i.due_date < i.issued_date)`,
  },
  {
    rule: "payment methods and the taxability override are of the API's sets",
    sql: `select id from invoices where gallery_id = $1 and (
        not accepted_payment_methods <@ ${textArray(paymentMethods)}
        or not taxability_override = any(${textArray(taxabilityOverrides)}))`,
  },
  {
    rule: "an invoice's lines add up to its subtotal",
    sql: `select i.id from invoices i join invoice_line_items l on l.invoice_id = i.id where i.gallery_id = $1
      group by i.id having sum(l.amount_cents) <> min(i.subtotal_cents)`,
  },
  // Fair runs.
  {
    rule: "a fair run's status is of the API's set, its user a member of the gallery",
    sql: `select r.id from fair_runs r left join members m on m.id = r.user_id and m.gallery_id = r.gallery_id
      where r.gallery_id = $1 and (m.id is null or r.step_count < 0
        or not r.status = any(${textArray(fairRunStatuses)}))`,
  },
  {
    rule: "a fair run's actions are {tool, gated, approved, at}, in time order within the run's life",
    sql: `select r.id from fair_runs r cross join lateral jsonb_array_elements(r.actions) with ordinality a(x, n)
      where r.gallery_id = $1 and (jsonb_typeof(a.x->'tool') <> 'string' or jsonb_typeof(a.x->'gated') <> 'boolean'
        or jsonb_typeof(a.x->'approved') <> 'boolean' or (a.x->>'at')::timestamptz < r.created_at
        or (a.x->>'at')::timestamptz > r.updated_at
        or (select count(*) from jsonb_object_keys(a.x)) <> 4
        or a.n > 1 and (a.x->>'at')::timestamptz < (r.actions->(a.n::int - 2)->>'at')::timestamptz)`,
  },
  {
    rule: "a succeeded run has every gated action approved; a run awaiting approval has a gated action unapproved",
    sql: `select r.id from fair_runs r where r.gallery_id = $1 and (
        r.status = 'succeeded' and exists (select 1 from jsonb_array_elements(r.actions) x
          where (x->>'gated')::boolean and not (x->>'approved')::boolean)
        or r.status = 'awaiting_approval' and not exists (select 1 from jsonb_array_elements(r.actions) x
          where (x->>'gated')::boolean and not (x->>'approved')::boolean))`,
  },
  {
    rule: "a failed run says why",
    sql: `select id from fair_runs where gallery_id = $1 and status = 'failed' and coalesce(error, '') = ''`,
  },
  // Offers, as the offers API moves them.
  {
    rule: "an offer's status is of the API's set; a scheduled offer's time is after it was scheduled, a draft has none; sent_at is set exactly when sent",
    sql: `select id from offers where gallery_id = $1 and (
        not status = any(${textArray(offerStatuses)})
        or status = 'scheduled' and not coalesce(scheduled_at > updated_at, false)
        or status = 'draft' and scheduled_at is not null
        or (status = 'sent') <> (sent_at is not null)
        or sent_at < created_at or updated_at < created_at)`,
  },
  {
    rule: `an offer's items are distinct works of the gallery at positions 0..n−1 (at most ${MAX_OFFER_ITEMS}), joined while it was composed`,
    sql: `${orderedWorks("offer_items", "offer_id", MAX_OFFER_ITEMS)}
      union all
      select o.id from offers o join offer_items i on i.offer_id = o.id where o.gallery_id = $1
        and (i.created_at < o.created_at or i.created_at > o.updated_at or i.gallery_id <> o.gallery_id)`,
  },
  {
    rule: "an offer's recipients are contacts of the gallery, added while it was composed; pending until it is sent, past pending once it is",
    sql: `select o.id from offers o join offer_recipients r on r.offer_id = o.id
        left join contacts c on c.id = r.contact_id and c.gallery_id = o.gallery_id
      where o.gallery_id = $1 and (c.id is null or r.gallery_id <> o.gallery_id
        or not r.status = any(${textArray(offerRecipientStatuses)})
        or (r.status = 'pending') = (o.status = 'sent')
        or r.added_at < o.created_at or r.added_at > coalesce(o.sent_at, o.updated_at))`,
  },
  // Recommendation matches: the engine's (the seed writes none; its first sweep judges the demo), and members'
  // feedback by pair, which the seed plants and the engine honours.
  {
    rule: "a match's probability and sub-scores lie in [0, 1], its status is of the API's set, and evidence_count counts its evidence",
    sql: `select m.id from recommendation_matches m where m.gallery_id = $1 and (
        m.probability < 0 or m.probability > 1
        or exists (select 1 from jsonb_each_text(m.sub_scores) s where s.value::float8 < 0 or s.value::float8 > 1)
        or not m.status = any(${textArray(matchStatuses)})
        or m.evidence_count <> (select count(*) from match_evidence e where e.match_id = m.id))`,
  },
  {
    rule: "a hidden match names its hider, and the pair's latest hide or unhide is that hide",
    sql: `select m.id from recommendation_matches m where m.gallery_id = $1 and m.hidden_until is not null and (
        m.hidden_by is null or not exists (select 1 from (select f.action, f.hidden_until from match_feedback f
            where f.gallery_id = m.gallery_id and f.contact_id = m.contact_id and f.artwork_id = m.artwork_id
              and f.action in ('hide', 'unhide') order by f.created_at desc, f.id desc limit 1) f
          where f.action = 'hide' and f.hidden_until = m.hidden_until))`,
  },
  {
    rule: "match feedback names a pair of the gallery, an action of the API's set, and a time to hide until exactly when it hides",
    sql: `select f.id from match_feedback f
        left join contacts c on c.id = f.contact_id and c.gallery_id = f.gallery_id
        left join artworks a on a.id = f.artwork_id and a.gallery_id = f.gallery_id
      where f.gallery_id = $1 and (c.id is null or a.id is null
        or not f.action = any(${textArray(MATCH_FEEDBACK_ACTIONS)})
        or (f.action = 'hide') <> (f.hidden_until is not null))`,
  },
  // Shows and their tags.
  {
    rule: `a show's status is of the API's set and its dates run forwards, agreeing with its status on the seed's clock (${BASE_DAY}): closed before it, open across it, planned after it or undated`,
    sql: `select id from shows where gallery_id = $1 and (
        not status = any(${textArray(showStatuses)})
        or ends_on < starts_on or (starts_on is null) <> (ends_on is null)
        or status = 'closed' and not coalesce(ends_on < '${BASE_DAY}', false)
        or status = 'open' and not coalesce(starts_on <= '${BASE_DAY}' and ends_on >= '${BASE_DAY}', false)
        or status = 'planned' and not coalesce(starts_on > '${BASE_DAY}', true)
        or updated_at < created_at)`,
  },
  {
    rule: `a show's works are distinct works of the gallery at positions 0..n−1 (at most ${MAX_ARTWORKS_PER_SHOW})`,
    sql: orderedWorks("show_artworks", "show_id", MAX_ARTWORKS_PER_SHOW),
  },
  {
    rule: `a show tag's colour, facet and origin are of the API's sets, its name 1 to 60 characters, unique on the show ignoring case; a show has at most ${MAX_TAGS_PER_SHOW} tags`,
    sql: `select t.id from show_tags t join shows s on s.id = t.show_id where t.gallery_id = $1 and (
        s.gallery_id <> t.gallery_id
        or not t.color = any(${textArray(showTagColors)})
        or not t.facet = any(${textArray(showTagFacets)})
        or not t.origin = any(${textArray(showTagOrigins)})
        or char_length(t.name) not between 1 and 60 or t.name <> btrim(t.name)
        or t.updated_at < t.created_at)
      union all
      select min(id) from show_tags where gallery_id = $1 group by show_id, lower(name) having count(*) > 1
      union all
      select show_id from show_tags where gallery_id = $1 group by show_id having count(*) > ${MAX_TAGS_PER_SHOW}`,
  },
  // Publications.
  {
    rule: `a publication's kind and visibility are of the API's sets; published_at is set exactly while published; its slug has the API's shape (at most ${MAX_SLUG_LENGTH} characters), unique in the gallery`,
    sql: `select id from publications where gallery_id = $1 and (
        not kind = any(${textArray(publicationKinds)})
        or not visibility = any(${textArray(publicationVisibilities)})
        or published <> (published_at is not null) or published_at < created_at or published_at > updated_at
        or slug !~ '${SLUG.source}' or char_length(slug) > ${MAX_SLUG_LENGTH})
      union all
      select min(id) from publications where gallery_id = $1 group by slug having count(*) > 1`,
  },
  {
    rule: "a publication's price is a non-negative amount in a currency, seen by one of the API's price visibilities",
    sql: `select p.publication_id as id from publication_pricing p join publications x on x.id = p.publication_id
      where p.gallery_id = $1 and (x.gallery_id <> p.gallery_id or p.price_cents < 0
        or p.currency !~ '^[A-Z]{3}$' or not p.price_visibility = any(${textArray(priceVisibilities)}))`,
  },
  {
    rule: "a publication's cover has both its storage path (a cover-upload path under the publication's folder) and its URL, or neither",
    sql: `select id from publications where gallery_id = $1 and (
        (cover_image_path is null) <> (cover_image_url is null)
        or cover_image_path !~ '${STORAGE_PATH_SHAPE.source}'
        or cover_image_path not like 'galleries/' || gallery_id || '/publications/' || id || '/cov\\_%'
        or cover_image_url not like '%/v1/assets/' || cover_image_path)`,
  },
  {
    rule: `a publication's works are distinct works of the gallery at positions 0..n−1 (at most ${MAX_ARTWORKS_PER_PUBLICATION})`,
    sql: orderedWorks("publication_artworks", "publication_id", MAX_ARTWORKS_PER_PUBLICATION),
  },
];

/**
 * What the demo must have to show, each a count over gallery $1 that must not be 0: the inbox's channels,
 * states and filters for two members, invoices in every status, fair runs in every status.
 */
export const DEMO_COVERAGE: readonly { what: string; sql: string }[] = [
  {
    what: "two members with connected accounts",
    sql: "select (count(distinct member_id) >= 2)::int from inbox_connections where gallery_id = $1",
  },
  ...inboxChannels.map((channel) => ({
    what: `threads on ${channel}`,
    sql: `select count(*) from inbox_threads where gallery_id = $1 and channel = '${channel}'`,
  })),
  ...[
    ["open threads", "state = 'open'"],
    ["done threads", "state = 'done'"],
    ["a snoozed thread (snooze_until ahead)", "state = 'snoozed' and snooze_until > now()"],
    ["an expired snooze (reads open)", "state = 'snoozed' and snooze_until <= now()"],
    ["a thread whose address matches no contact", "contact_id is null"],
    ["unread threads", "unread_count > 0"],
    ["assigned threads", "assigned_to is not null"],
    ["untriaged threads", "triaged_at is null"],
    ["a corrected intent", "triage_corrected_intent is not null"],
  ].map(([what, where]) => ({
    what: what!,
    sql: `select count(*) from inbox_threads where gallery_id = $1 and ${where}`,
  })),
  {
    what: "threads of the second member",
    sql: `select count(*) from inbox_threads t join members m on m.id = t.member_id
      where t.gallery_id = $1 and m.role = 'viewer'`,
  },
  ...invoiceStatuses.map((status) => ({
    what: `an invoice with status ${status}`,
    sql: `select count(*) from invoices where gallery_id = $1 and status = '${status}'`,
  })),
  ...[
    [
      "an unpaid invoice past its due date",
      `status = 'unpaid' and due_date < date '${new Date(BASE).toISOString().slice(0, 10)}'`,
    ],
    ["a standalone invoice", "sale_id is null"],
    ["an archived invoice", "archived_at is not null"],
    ["a foreign-currency invoice", "currency <> fx_base_currency"],
    ["a discount in basis points", "discount_bps > 0"],
  ].map(([what, where]) => ({
    what: what!,
    sql: `select count(*) from invoices where gallery_id = $1 and ${where}`,
  })),
  ...fairRunStatuses.map((status) => ({
    what: `a fair run with status ${status}`,
    sql: `select count(*) from fair_runs where gallery_id = $1 and status = '${status}'`,
  })),
  // Viewing rooms, as the public surface sees them now (the example page and the browser suite show these).
  ...[
    ["an open public room", "visibility = 'public' and open"],
    ["an open unlisted room", "visibility = 'unlisted' and open"],
    ["a private room", "visibility = 'private'"],
    ["a public room that has closed", "visibility = 'public' and closes_at <= now()"],
  ].map(([what, where]) => ({
    what: what!,
    sql: `select count(*) from (select *, (coalesce(opens_at <= now(), true) and coalesce(closes_at > now(), true)) as open
      from viewing_rooms where gallery_id = $1) r where ${where}`,
  })),
  ...[
    ["an open public room showing a public price", ""],
    ["an open public room with a price on request", "not"],
  ].map(([what, negation]) => ({
    what: what!,
    sql: `select count(*) from viewing_rooms r join viewing_room_artworks ra on ra.viewing_room_id = r.id
      join artworks a on a.id = ra.artwork_id
      where r.gallery_id = $1 and r.visibility = 'public' and coalesce(r.opens_at <= now(), true)
        and coalesce(r.closes_at > now(), true)
        and ${negation} (ra.show_price and a.show_price_publicly and a.price_cents is not null)`,
  })),
  // Offers in every status, and recipients in every status.
  ...offerStatuses.map((status) => ({
    what: `an offer with status ${status}`,
    sql: `select count(*) from offers where gallery_id = $1 and status = '${status}'`,
  })),
  {
    what: "a scheduled offer whose send time is ahead",
    sql: "select count(*) from offers where gallery_id = $1 and status = 'scheduled' and scheduled_at > now()",
  },
  ...offerRecipientStatuses.map((status) => ({
    what: `an offer recipient with status ${status}`,
    sql: `select count(*) from offer_recipients where gallery_id = $1 and status = '${status}'`,
  })),
  // Members' feedback by pair: the showcase offer's hidden pair (read hidden once the engine judged it) and labels.
  {
    what: "a pair on the showcase offer's work hidden by the editor until 2030-06-01, its contact not on the offer",
    sql: `select count(*) from match_feedback f join offers o on o.gallery_id = f.gallery_id
        join offer_items i on i.offer_id = o.id and i.artwork_id = f.artwork_id
      where f.gallery_id = $1 and o.status = 'draft' and f.action = 'hide'
        and f.hidden_until = '${new Date(SHOWCASE_HIDDEN_UNTIL).toISOString()}'
        and not exists (select 1 from offer_recipients r where r.offer_id = o.id and r.contact_id = f.contact_id)
        and exists (select 1 from engagement_events e where e.gallery_id = f.gallery_id
          and e.contact_id = f.contact_id and e.artwork_id = f.artwork_id)`,
  },
  ...["not_interested", "good_match"].map((action) => ({
    what: `match feedback ${action} on a pair`,
    sql: `select count(*) from match_feedback where gallery_id = $1 and action = '${action}'`,
  })),
  // Shows, their tags, publications.
  ...showStatuses.map((status) => ({
    what: `a show with status ${status}`,
    sql: `select count(*) from shows where gallery_id = $1 and status = '${status}'`,
  })),
  { what: "an undated show", sql: "select count(*) from shows where gallery_id = $1 and starts_on is null" },
  ...showTagOrigins.map((origin) => ({
    what: `a show tag of origin ${origin}`,
    sql: `select count(*) from show_tags where gallery_id = $1 and origin = '${origin}'`,
  })),
  {
    what: "one tag name on two shows",
    sql: `select count(*) from (select lower(name) from show_tags where gallery_id = $1
      group by lower(name) having count(distinct show_id) > 1) x`,
  },
  ...publicationVisibilities.map((visibility) => ({
    what: `a ${visibility} publication`,
    sql: `select count(*) from publications where gallery_id = $1 and visibility = '${visibility}'`,
  })),
  ...[
    ["a published publication", "published"],
    ["an unpublished publication", "not published"],
    [
      "a publication without a price",
      "not exists (select 1 from publication_pricing p where p.publication_id = x.id)",
    ],
  ].map(([what, where]) => ({
    what: what!,
    sql: `select count(*) from publications x where gallery_id = $1 and ${where}`,
  })),
  ...priceVisibilities.map((visibility) => ({
    what: `a publication price seen by ${visibility}`,
    sql: `select count(*) from publication_pricing where gallery_id = $1 and price_visibility = '${visibility}'`,
  })),
];

/**
 * What the demo roster must show: each probe is a contacts-list filter (the API's own conditions, from
 * db/queries/contact-filters) that must match some unarchived contacts and, unless `some`, not all of them.
 */
interface Probe {
  label: string;
  filters: ContactListFilters;
  /** Only "matches at least one" (archived shelf, static lists). */
  some?: boolean;
  /** Reads the engine's verdicts, which it writes after the seed (its first sweep): may match none yet. */
  judged?: boolean;
}

const since = (days: number) => new Date(BASE - days * DAY).toISOString();

async function rosterProbes(client: pg.ClientBase, galleryId: string): Promise<Probe[]> {
  const ids = async (text: string) =>
    (await client.query<{ id: string }>(text, [galleryId])).rows.map((r) => r.id);
  const members = await ids("select id from members where gallery_id = $1 order by id");
  const tags = await ids("select id from tags where gallery_id = $1 and scope = 'contact' order by id");
  const lists = await client.query<{ id: string; is_dynamic: boolean; described: boolean }>(
    `select id, is_dynamic, dynamic_query ? 'described_as' as described from contact_lists
     where gallery_id = $1 order by id`,
    [galleryId],
  );
  const each = <T extends string>(name: keyof ContactListFilters, values: readonly T[]): Probe[] =>
    values.map((v) => ({ label: `${name}=${v}`, filters: { [name]: v } }));
  const probes: Probe[] = [
    ...each("type", contactTypes),
    ...each("lead_status", leadStatuses),
    ...each("price_band", priceBands),
    ...each("assigned_to", members),
    ...tags.map((t) => ({ label: `tag_id=${t}`, filters: { tag_id: [t] } })),
    ...each("has_interaction_since", [since(30), since(365)]),
    ...[1, 2_500_000, 10_000_000].map((n) => ({
      label: `min_total_spend_cents=${n}`,
      filters: { min_total_spend_cents: n },
    })),
    ...[1, 2, 3].map((n) => ({ label: `min_works_acquired=${n}`, filters: { min_works_acquired: n } })),
    ...each("engaged_event", engagementKinds),
    {
      label: "engaged_event=room_opened&engaged_since=2025-11-01",
      filters: { engaged_event: "room_opened", engaged_since: "2025-11-01T00:00Z" },
    },
    ...each("engaged_since", [since(14), since(90)]),
    ...each("q", ["example.org", "museum"]),
    { label: "archived=only", filters: { archived: "only" }, some: true },
    ...lists.rows.map((l) => ({
      label: `list_id=${l.id}${l.is_dynamic ? " (dynamic)" : ""}`,
      filters: { list_id: l.id },
      some: !l.is_dynamic,
      judged: l.described,
    })),
    ...lists.rows
      .filter((l) => l.described)
      .map((l) => ({
        label: `judged_rubric=segment:${l.id}`,
        filters: { judged_rubric: `segment:${l.id}` },
        judged: true,
      })),
  ];
  return probes;
}

const dialect = new PgDialect();

async function countContacts(client: pg.ClientBase, where: SQL[]): Promise<number> {
  const q = dialect.sqlToQuery(
    sql`select count(*)::int as n from contacts c where ${sql.join(where, sql` and `)}`,
  );
  const result = await client.query<{ n: number }>(q.sql, q.params);
  return result.rows[0]!.n;
}

/** How many unarchived contacts the roster has, and how many each probe's filter matches. */
export async function rosterCounts(
  client: pg.ClientBase,
  galleryId: string,
): Promise<{ roster: number; probes: (Probe & { n: number })[] }> {
  const roster = await countContacts(client, contactWhere(contactConditions(galleryId, {})));
  const probes: (Probe & { n: number })[] = [];
  for (const probe of await rosterProbes(client, galleryId)) {
    probes.push({
      ...probe,
      n: await countContacts(client, contactWhere(contactConditions(galleryId, probe.filters))),
    });
  }
  return { roster, probes };
}

/** What a zod parse refused, in one line. */
const issues = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".") || "(body)"} ${i.message}`).join("; ");

/**
 * The demo's offers, shows, show tags and publications as requests to their APIs would write them: each id
 * passes the path parameter, each row the create body (offer items the items PUT, recipients the add, a cover
 * the PATCH of its path). Returns what the API would refuse.
 */
async function apiInputProblems(client: pg.ClientBase, galleryId: string): Promise<string[]> {
  const broken: string[] = [];
  const check = (what: string, result: { success: boolean; error?: Parameters<typeof issues>[0] }) => {
    if (!result.success) broken.push(`${what}: ${issues(result.error!)}`);
  };
  const rowsOf = async <T>(text: string) => (await client.query<T & { id: string }>(text, [galleryId])).rows;

  for (const o of await rowsOf<{ create: unknown; items: unknown; recipients: string[] }>(
    `select o.id, json_build_object('title', o.title, 'message', o.message, 'currency', o.currency) as create,
        json_build_object('items', (select coalesce(json_agg(json_build_object('artwork_id', i.artwork_id,
            'caption_override', i.caption_override, 'price_shown_cents', i.price_shown_cents, 'currency', i.currency,
            'price_visible', i.price_visible) order by i.position), '[]') from offer_items i where i.offer_id = o.id)) as items,
        array(select r.contact_id from offer_recipients r where r.offer_id = o.id order by r.added_at, r.contact_id) as recipients
      from offers o where o.gallery_id = $1 order by o.id`,
  )) {
    check(`offer ${o.id}`, OfferIdParams.safeParse({ id: o.id }));
    check(`offer ${o.id}`, OfferCreate.safeParse(o.create));
    check(`offer ${o.id} items`, OfferItemsReplace.safeParse(o.items));
    for (let i = 0; i < o.recipients.length; i += MAX_RECIPIENTS_ADDED) {
      check(
        `offer ${o.id} recipients`,
        OfferRecipientsAdd.safeParse({ contact_ids: o.recipients.slice(i, i + MAX_RECIPIENTS_ADDED) }),
      );
    }
  }
  for (const show of await rowsOf<{ body: unknown }>(
    `select s.id, json_build_object('title', s.title, 'description', s.description, 'starts_on', s.starts_on,
        'ends_on', s.ends_on, 'status', s.status, 'venue', s.venue, 'artwork_ids',
        array(select a.artwork_id from show_artworks a where a.show_id = s.id order by a.position)) as body
      from shows s where s.gallery_id = $1 order by s.id`,
  )) {
    check(`show ${show.id}`, ShowIdParams.safeParse({ id: show.id }));
    check(`show ${show.id}`, ShowCreate.safeParse(show.body));
  }
  for (const tag of await rowsOf<{ show_id: string; body: unknown }>(
    `select id, show_id, json_build_object('name', name, 'color', color, 'facet', facet, 'origin', origin) as body
      from show_tags where gallery_id = $1 order by id`,
  )) {
    check(`show tag ${tag.id}`, ShowTagParams.safeParse({ showId: tag.show_id, tagId: tag.id }));
    check(`show tag ${tag.id}`, ShowTagCreate.safeParse(tag.body));
  }
  for (const pub of await rowsOf<{ body: unknown; cover: string | null }>(
    `select x.id, x.cover_image_path as cover, json_build_object('title', x.title, 'slug', x.slug, 'kind', x.kind,
        'body', x.body, 'visibility', x.visibility, 'published', x.published, 'artwork_ids',
        array(select a.artwork_id from publication_artworks a where a.publication_id = x.id order by a.position),
        'price', (select json_build_object('price_cents', p.price_cents, 'currency', p.currency,
          'price_visibility', p.price_visibility) from publication_pricing p where p.publication_id = x.id)) as body
      from publications x where x.gallery_id = $1 order by x.id`,
  )) {
    check(`publication ${pub.id}`, PublicationIdParams.safeParse({ id: pub.id }));
    check(`publication ${pub.id}`, PublicationCreate.safeParse(pub.body));
    if (pub.cover)
      check(`publication ${pub.id}`, PublicationUpdate.safeParse({ cover_image_path: pub.cover }));
  }
  return broken;
}

interface Recommended {
  contact_id: string;
  top_reason: string | null;
  probability: number;
  artworks: { artwork_id: string }[];
}

/**
 * Recommended recipients of each draft offer, read with the API's own statement: what it answers must leave out
 * archived and do-not-email contacts and the offer's recipients, clear the floor, and name a reason. The matches
 * are the engine's, judged after the seed (its first sweep), so a draft offer may answer no one yet.
 */
async function recommendedProblems(client: pg.ClientBase, galleryId: string): Promise<string[]> {
  const broken: string[] = [];
  const drafts = await client.query<{ id: string }>(
    "select id from offers where gallery_id = $1 and status = 'draft' order by id",
    [galleryId],
  );
  for (const { id } of drafts.rows) {
    const q = dialect.sqlToQuery(recommendedRecipientsQuery(galleryId, id, MAX_RECOMMENDED));
    const answer = await client.query<{ found: boolean; body: string }>(q.sql, q.params);
    const data = (JSON.parse(answer.rows[0]!.body) as { data: Recommended[] }).data;
    const omitted = await client.query<{ id: string }>(
      `select c.id from contacts c where c.gallery_id = $1 and c.id = any($2::text[]) and (c.archived_at is not null
        or c.do_not_email or exists (select 1 from offer_recipients r where r.offer_id = $3 and r.contact_id = c.id))`,
      [galleryId, data.map((r) => r.contact_id), id],
    );
    const wrong = [
      ...omitted.rows.map((r) => r.id),
      ...data
        .filter(
          (r) => r.top_reason === null || r.probability < RECOMMENDATION_FLOOR || r.artworks.length === 0,
        )
        .map((r) => r.contact_id),
    ];
    if (wrong.length) {
      broken.push(
        `recommended recipients of ${id} leave out archived, do-not-email and recipient contacts, clear the floor and name a reason: ${wrong.slice(0, 5).join(", ")}`,
      );
    }
  }
  return broken;
}

/**
 * Throws when a rule has offending rows in the gallery, when an image or cover the rows name is not stored in the
 * bucket, or when a filter finds nothing to show.
 */
export async function checkDemo(
  client: pg.ClientBase,
  galleryId: string,
  bucket: LocalBucket,
): Promise<void> {
  const broken: string[] = [];
  const unstored = await missingPictures(client, galleryId, bucket);
  if (unstored.length) {
    broken.push(
      `every image and cover is stored in the bucket at its storage path: ${unstored.slice(0, 5).join(", ")}`,
    );
  }
  for (const { rule, sql } of DEMO_INVARIANTS) {
    const result = await client.query<{ id: string }>(`${sql} limit 5`, [galleryId]);
    if (result.rowCount) broken.push(`${rule}: ${result.rows.map((r) => r.id).join(", ")}`);
  }
  const queries = await client.query<{ id: string; q: unknown }>(
    "select id, dynamic_query as q from contact_lists where gallery_id = $1 and is_dynamic",
    [galleryId],
  );
  for (const list of queries.rows) {
    const parsed = ContactListQuery.safeParse(list.q);
    if (!parsed.success) broken.push(`a dynamic list's query is one the API accepts: ${list.id}`);
  }
  broken.push(...(await apiInputProblems(client, galleryId)));
  broken.push(...(await recommendedProblems(client, galleryId)));
  if (broken.length) throw new Error(`seed: the demo data breaks its rules:\n  ${broken.join("\n  ")}`);

  const missing: string[] = [];
  for (const { what, sql } of DEMO_COVERAGE) {
    const result = await client.query<{ n: string }>(`select (${sql}) as n`, [galleryId]);
    if (Number(result.rows[0]!.n) === 0) missing.push(what);
  }
  if (missing.length) throw new Error(`seed: the demo data lacks:\n  ${missing.join("\n  ")}`);

  const { roster, probes } = await rosterCounts(client, galleryId);
  const idle = probes
    .filter(({ n, some, judged }) => (n === 0 && !judged) || (!some && n >= roster))
    .map(({ label, n }) => `${label} matches ${n} of ${roster}`);
  if (idle.length) {
    throw new Error(`seed: the demo roster leaves filters with nothing to show:\n  ${idle.join("\n  ")}`);
  }
}
