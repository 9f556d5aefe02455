/**
 * What the demo data must hold for the API to serve it as it would serve its own writes. Run on the seeded
 * gallery before the seed's transaction commits: a violation aborts the seed, naming the rule and a few rows.
 */
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { type ContactListFilters, contactConditions } from "../../db/queries/contact-filters";
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
import { BASE, DAY } from "./common";

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
    })),
    ...lists.rows
      .filter((l) => l.described)
      .map((l) => ({
        label: `judged_rubric=segment:${l.id}`,
        filters: { judged_rubric: `segment:${l.id}` },
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
  const roster = await countContacts(client, contactConditions(galleryId, {}));
  const probes: (Probe & { n: number })[] = [];
  for (const probe of await rosterProbes(client, galleryId)) {
    probes.push({ ...probe, n: await countContacts(client, contactConditions(galleryId, probe.filters)) });
  }
  return { roster, probes };
}

/** Throws when a rule has offending rows in the gallery, or when a filter finds nothing to show. */
export async function checkDemo(client: pg.ClientBase, galleryId: string): Promise<void> {
  const broken: string[] = [];
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
  if (broken.length) throw new Error(`seed: the demo data breaks its rules:\n  ${broken.join("\n  ")}`);

  const missing: string[] = [];
  for (const { what, sql } of DEMO_COVERAGE) {
    const result = await client.query<{ n: string }>(`select (${sql}) as n`, [galleryId]);
    if (Number(result.rows[0]!.n) === 0) missing.push(what);
  }
  if (missing.length) throw new Error(`seed: the demo data lacks:\n  ${missing.join("\n  ")}`);

  const { roster, probes } = await rosterCounts(client, galleryId);
  const idle = probes
    .filter(({ n, some }) => n === 0 || (!some && n >= roster))
    .map(({ label, n }) => `${label} matches ${n} of ${roster}`);
  if (idle.length) {
    throw new Error(`seed: the demo roster leaves filters with nothing to show:\n  ${idle.join("\n  ")}`);
  }
}
