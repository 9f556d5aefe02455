import { z } from "@hono/zod-openapi";
import type { EventType } from "./event-types";
import { eventTypes } from "./event-types";
import { ApiKey } from "./schemas/api-keys";
import { ArtworkImage } from "./schemas/artwork-images";
import { ArtworkActivityEvent } from "./schemas/artwork-timeline";
import { Artwork, ArtworkFormat } from "./schemas/artworks";
import { AuctionRecord } from "./schemas/auction-records";
import { Artist, CustomStatus, Location, Tag } from "./schemas/catalogue";
import { ContactList, ContactListMembershipChange } from "./schemas/contact-lists";
import { Contact } from "./schemas/contacts";
import { EngagementEvent } from "./schemas/engagements";
import { FairRun, fairRunUpdatedData } from "./schemas/fair-runs";
import { InboxConnectionEventObject, InboxMessageEventObject, InboxThreadEventObject } from "./schemas/inbox";
import { Interaction } from "./schemas/interactions";
import { Invoice, PaymentReversal } from "./schemas/invoices";
import { Match, matchFeedbackEventData } from "./schemas/matches";
import { Member } from "./schemas/members";
import { Offer, OfferItemsChange, OfferRecipientsChange } from "./schemas/offers";
import { PrivateNoteReference } from "./schemas/private-notes";
import { Publication } from "./schemas/publications";
import { Sale } from "./schemas/sales";
import { Show, ShowTag, showTagEventData } from "./schemas/shows";
import { Task } from "./schemas/tasks";
import { ViewingRoom } from "./schemas/viewing-rooms";
import { WebhookEndpoint } from "./schemas/webhooks";

/**
 * Who may read each resource that events carry: the operation that reads it (by operationId). An event's
 * `data.object` is that resource, so reading the event takes that operation's scopes (besides `events:read`),
 * and subscribing a webhook endpoint to its type takes them too. The scopes are not written here but read from
 * the operation's own declaration (functions/events/read-scopes.ts), so the two cannot drift apart.
 */
export const eventObjectReaders = {
  artwork: "getArtwork",
  artwork_image: "listArtworkImages",
  artwork_format: "listArtworkFormats",
  artwork_activity_event: "listArtworkEvents",
  auction_record: "listAuctionRecords",
  artist: "getArtist",
  tag: "getTag",
  custom_status: "getCustomStatus",
  location: "getLocation",
  private_note: "listPrivateNotes",
  contact_list: "getContactList",
  contact: "getContact",
  interaction: "listContactInteractions",
  engagement_event: "listContactEngagements",
  sale: "getSale",
  task: "listContactTasks",
  fair_run: "getFairRun",
  invoice: "getInvoice",
  inbox_connection: "listInboxConnections",
  inbox_message: "listInboxThreadMessages",
  inbox_thread: "getInboxThread",
  viewing_room: "getViewingRoom",
  show: "getShow",
  show_tag: "listShowTags",
  match: "getContactMatch",
  publication: "getPublication",
  offer: "getOffer",
  api_key: "getApiKey",
  member: "listMembers",
  webhook_endpoint: "getWebhookEndpoint",
} as const;

export type EventResourceType = keyof typeof eventObjectReaders;

interface CatalogueEntry {
  /** The resource the event is about; its reader (`eventObjectReaders`) says who may read the event. */
  resourceType: EventResourceType;
  /** Schema of `data.object`. */
  object: z.ZodType;
  /** Whether `data.previous_attributes` is present (updates). */
  previousAttributes: boolean;
  /** Further members of `data`, beside `object` and `previous_attributes`, where the event carries more. */
  data?: Record<string, z.ZodType>;
}

/**
 * What each event type carries. Typed by the event-type list, so a new type cannot be emitted without saying
 * here what its `data` holds; the catalogue endpoint and the OpenAPI `webhooks` section are generated from it.
 */
export const eventCatalogue: Record<EventType, CatalogueEntry> = {
  "artwork.created": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "artwork.updated": { resourceType: "artwork", object: Artwork, previousAttributes: true },
  "artwork.price_changed": { resourceType: "artwork", object: Artwork, previousAttributes: true },
  "artwork.deleted": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "artwork_image.created": { resourceType: "artwork_image", object: ArtworkImage, previousAttributes: false },
  "artwork_image.updated": { resourceType: "artwork_image", object: ArtworkImage, previousAttributes: true },
  "artwork_image.deleted": { resourceType: "artwork_image", object: ArtworkImage, previousAttributes: false },
  "artwork_format.created": {
    resourceType: "artwork_format",
    object: ArtworkFormat,
    previousAttributes: false,
  },
  "artwork_format.updated": {
    resourceType: "artwork_format",
    object: ArtworkFormat,
    previousAttributes: true,
  },
  "artwork_format.deleted": {
    resourceType: "artwork_format",
    object: ArtworkFormat,
    previousAttributes: false,
  },
  "artwork.draft_updated": { resourceType: "artwork", object: Artwork, previousAttributes: true },
  "artwork.published": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "artwork.draft_discarded": { resourceType: "artwork", object: Artwork, previousAttributes: false },
  "artwork.interest_recorded": {
    resourceType: "artwork_activity_event",
    object: ArtworkActivityEvent,
    previousAttributes: false,
  },
  "auction_record.created": {
    resourceType: "auction_record",
    object: AuctionRecord,
    previousAttributes: false,
  },
  "auction_record.deleted": {
    resourceType: "auction_record",
    object: AuctionRecord,
    previousAttributes: false,
  },
  "artist.created": { resourceType: "artist", object: Artist, previousAttributes: false },
  "artist.updated": { resourceType: "artist", object: Artist, previousAttributes: true },
  "artist.deleted": { resourceType: "artist", object: Artist, previousAttributes: false },
  "tag.created": { resourceType: "tag", object: Tag, previousAttributes: false },
  "tag.updated": { resourceType: "tag", object: Tag, previousAttributes: true },
  "tag.deleted": { resourceType: "tag", object: Tag, previousAttributes: false },
  "custom_status.created": { resourceType: "custom_status", object: CustomStatus, previousAttributes: false },
  "custom_status.updated": { resourceType: "custom_status", object: CustomStatus, previousAttributes: true },
  "custom_status.deleted": { resourceType: "custom_status", object: CustomStatus, previousAttributes: false },
  "location.created": { resourceType: "location", object: Location, previousAttributes: false },
  "location.updated": { resourceType: "location", object: Location, previousAttributes: true },
  "location.deleted": { resourceType: "location", object: Location, previousAttributes: false },
  "private_note.created": {
    resourceType: "private_note",
    object: PrivateNoteReference,
    previousAttributes: false,
  },
  "contact_list.created": { resourceType: "contact_list", object: ContactList, previousAttributes: false },
  "contact_list.updated": { resourceType: "contact_list", object: ContactList, previousAttributes: true },
  "contact_list.deleted": { resourceType: "contact_list", object: ContactList, previousAttributes: false },
  "contact_list.members_added": {
    resourceType: "contact_list",
    object: ContactListMembershipChange,
    previousAttributes: false,
  },
  "contact_list.member_removed": {
    resourceType: "contact_list",
    object: ContactListMembershipChange,
    previousAttributes: false,
  },
  "contact.created": { resourceType: "contact", object: Contact, previousAttributes: false },
  "contact.updated": { resourceType: "contact", object: Contact, previousAttributes: true },
  "contact.deleted": { resourceType: "contact", object: Contact, previousAttributes: false },
  "contact.archived": { resourceType: "contact", object: Contact, previousAttributes: false },
  "contact.restored": { resourceType: "contact", object: Contact, previousAttributes: false },
  "interaction.created": { resourceType: "interaction", object: Interaction, previousAttributes: false },
  "engagement_event.recorded": {
    resourceType: "engagement_event",
    object: EngagementEvent,
    previousAttributes: false,
  },
  "sale.created": { resourceType: "sale", object: Sale, previousAttributes: false },
  "sale.updated": { resourceType: "sale", object: Sale, previousAttributes: true },
  "sale.deleted": { resourceType: "sale", object: Sale, previousAttributes: false },
  "task.created": { resourceType: "task", object: Task, previousAttributes: false },
  "task.updated": { resourceType: "task", object: Task, previousAttributes: true },
  "task.deleted": { resourceType: "task", object: Task, previousAttributes: false },
  "fair_run.created": { resourceType: "fair_run", object: FairRun, previousAttributes: false },
  "fair_run.updated": {
    resourceType: "fair_run",
    object: FairRun,
    previousAttributes: true,
    data: fairRunUpdatedData,
  },
  "fair_run.succeeded": { resourceType: "fair_run", object: FairRun, previousAttributes: false },
  "fair_run.failed": { resourceType: "fair_run", object: FairRun, previousAttributes: false },
  "fair_run.cancelled": { resourceType: "fair_run", object: FairRun, previousAttributes: false },
  "invoice.created": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "invoice.updated": { resourceType: "invoice", object: Invoice, previousAttributes: true },
  "invoice.issued": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "invoice.payment_recorded": { resourceType: "invoice", object: Invoice, previousAttributes: true },
  "invoice.payment_reversed": {
    resourceType: "invoice",
    object: Invoice,
    previousAttributes: true,
    data: { reversal: PaymentReversal },
  },
  "invoice.paid": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "invoice.voided": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "invoice.archived": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "invoice.restored": { resourceType: "invoice", object: Invoice, previousAttributes: false },
  "inbox_connection.created": {
    resourceType: "inbox_connection",
    object: InboxConnectionEventObject,
    previousAttributes: false,
  },
  "inbox_connection.updated": {
    resourceType: "inbox_connection",
    object: InboxConnectionEventObject,
    previousAttributes: true,
  },
  "inbox_connection.deleted": {
    resourceType: "inbox_connection",
    object: InboxConnectionEventObject,
    previousAttributes: false,
  },
  "inbox_message.received": {
    resourceType: "inbox_message",
    object: InboxMessageEventObject,
    previousAttributes: false,
  },
  "inbox_message.sent": {
    resourceType: "inbox_message",
    object: InboxMessageEventObject,
    previousAttributes: false,
  },
  "inbox_thread.updated": {
    resourceType: "inbox_thread",
    object: InboxThreadEventObject,
    previousAttributes: true,
  },
  "inbox_thread.marked_read": {
    resourceType: "inbox_thread",
    object: InboxThreadEventObject,
    previousAttributes: false,
  },
  "inbox_thread.marked_unread": {
    resourceType: "inbox_thread",
    object: InboxThreadEventObject,
    previousAttributes: false,
  },
  "viewing_room.created": { resourceType: "viewing_room", object: ViewingRoom, previousAttributes: false },
  "viewing_room.updated": { resourceType: "viewing_room", object: ViewingRoom, previousAttributes: true },
  "viewing_room.deleted": { resourceType: "viewing_room", object: ViewingRoom, previousAttributes: false },
  "show.created": { resourceType: "show", object: Show, previousAttributes: false },
  "show.updated": { resourceType: "show", object: Show, previousAttributes: true },
  "show.deleted": { resourceType: "show", object: Show, previousAttributes: false },
  "match.created": { resourceType: "match", object: Match, previousAttributes: false },
  "match.updated": { resourceType: "match", object: Match, previousAttributes: true },
  "match.deleted": { resourceType: "match", object: Match, previousAttributes: false },
  "match.feedback_recorded": {
    resourceType: "match",
    object: Match,
    previousAttributes: true,
    data: matchFeedbackEventData,
  },
  "show_tag.created": {
    resourceType: "show_tag",
    object: ShowTag,
    previousAttributes: false,
    data: showTagEventData,
  },
  "show_tag.updated": {
    resourceType: "show_tag",
    object: ShowTag,
    previousAttributes: true,
    data: showTagEventData,
  },
  "show_tag.deleted": {
    resourceType: "show_tag",
    object: ShowTag,
    previousAttributes: false,
    data: showTagEventData,
  },
  "publication.created": { resourceType: "publication", object: Publication, previousAttributes: false },
  "publication.updated": { resourceType: "publication", object: Publication, previousAttributes: true },
  "publication.published": { resourceType: "publication", object: Publication, previousAttributes: false },
  "publication.unpublished": { resourceType: "publication", object: Publication, previousAttributes: false },
  "publication.deleted": { resourceType: "publication", object: Publication, previousAttributes: false },
  "offer.created": { resourceType: "offer", object: Offer, previousAttributes: false },
  "offer.updated": { resourceType: "offer", object: Offer, previousAttributes: true },
  "offer.scheduled": { resourceType: "offer", object: Offer, previousAttributes: false },
  "offer.sent": { resourceType: "offer", object: Offer, previousAttributes: false },
  "offer.cancelled": { resourceType: "offer", object: Offer, previousAttributes: false },
  "offer.deleted": { resourceType: "offer", object: Offer, previousAttributes: false },
  "offer.items_replaced": { resourceType: "offer", object: OfferItemsChange, previousAttributes: false },
  "offer.recipients_added": {
    resourceType: "offer",
    object: OfferRecipientsChange,
    previousAttributes: false,
  },
  "offer.recipient_removed": {
    resourceType: "offer",
    object: OfferRecipientsChange,
    previousAttributes: false,
  },
  "api_key.created": { resourceType: "api_key", object: ApiKey, previousAttributes: false },
  "api_key.revoked": { resourceType: "api_key", object: ApiKey, previousAttributes: false },
  "member.updated": { resourceType: "member", object: Member, previousAttributes: true },
  "webhook_endpoint.created": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.updated": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: true,
  },
  "webhook_endpoint.deleted": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.disabled": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.secret_rotated": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
  "webhook_endpoint.test": {
    resourceType: "webhook_endpoint",
    object: WebhookEndpoint,
    previousAttributes: false,
  },
};

/** The `data` schema of one event type. */
export function eventDataSchema(type: EventType) {
  const entry = eventCatalogue[type];
  return entry.previousAttributes
    ? z.object({
        object: entry.object,
        previous_attributes: z
          .record(z.string(), z.unknown())
          .openapi({ description: "The former values of the fields that changed." }),
        ...entry.data,
      })
    : z.object({ object: entry.object, ...entry.data });
}

/** The full event (as delivered and as `GET /gallery/events/{id}` returns it) for one type. */
export function eventEnvelopeSchema(type: EventType) {
  const resource = eventCatalogue[type].resourceType.replaceAll("_", " ");
  return z.object({
    id: z.string().openapi({
      description:
        "The event's id (`evt_…`): the same on every delivery and replay of it, so a receiver dedupes on it.",
    }),
    type: z.literal(type).openapi({ description: "The event type (the catalogue: `GET /v1/event-types`)." }),
    livemode: z.boolean().openapi({
      description: "Whether the event happened in a live gallery (false: in a sandbox gallery).",
    }),
    resource_type: z.literal(eventCatalogue[type].resourceType).openapi({
      description: `The kind of resource the event is about (\`${eventCatalogue[type].resourceType}\`).`,
    }),
    resource_id: z.string().openapi({ description: `The id of the ${resource} the event is about.` }),
    data: eventDataSchema(type).openapi({
      description: `What changed: \`object\` is the ${resource} as its retrieve operation returns it after the change (just before it, for a deletion).`,
    }),
    created_at: z.string().openapi({
      description:
        "When the change was committed (UTC, milliseconds); the events of one write share it, and one resource's events are recorded in commit order.",
    }),
  });
}

export const catalogueTypes = Object.keys(eventTypes) as EventType[];

/** Each event type's read scopes (all required): the scopes of the operation that reads its object. */
export type EventReadScopes = Readonly<Record<EventType, readonly string[]>>;

/** The catalogue types a webhook subscription pattern covers: `*`, an exact type, or `<resource>.*`. */
export function typesMatching(pattern: string): EventType[] {
  if (pattern === "*") return catalogueTypes;
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -1);
    return catalogueTypes.filter((type) => type.startsWith(prefix));
  }
  return catalogueTypes.filter((type) => type === pattern);
}

/** readableEventTypes' answers, per read-scope table and set of held scopes: a credential's scopes rarely change. */
const readableByScopes = new WeakMap<EventReadScopes, Map<string, readonly EventType[]>>();
const READABLE_REMEMBERED = 1_000;

/** The event types a credential holding `held` may read (the same array for the same scopes: not to be changed). */
export function readableEventTypes(
  readScopes: EventReadScopes,
  held: readonly string[],
): readonly EventType[] {
  let byHeld = readableByScopes.get(readScopes);
  if (!byHeld) {
    byHeld = new Map();
    readableByScopes.set(readScopes, byHeld);
  }
  const key = held.join(" ");
  let readable = byHeld.get(key);
  if (!readable) {
    const scopes = new Set(held);
    readable = catalogueTypes.filter((type) => readScopes[type].every((scope) => scopes.has(scope)));
    if (byHeld.size >= READABLE_REMEMBERED) byHeld.clear();
    byHeld.set(key, readable);
  }
  return readable;
}

/**
 * What a subscription to `patterns` takes: the read scopes of every type it covers (`required`), those `held`
 * lacks (`missing`) and the patterns that need a missing one.
 */
export function subscriptionScopes(
  readScopes: EventReadScopes,
  patterns: readonly string[],
  held: readonly string[],
): { required: string[]; missing: string[]; patterns: string[] } {
  const required = new Set<string>();
  const short: string[] = [];
  for (const pattern of patterns) {
    const needs = new Set(typesMatching(pattern).flatMap((type) => readScopes[type]));
    for (const scope of needs) required.add(scope);
    if ([...needs].some((scope) => !held.includes(scope))) short.push(pattern);
  }
  const all = [...required].sort();
  return { required: all, missing: all.filter((scope) => !held.includes(scope)), patterns: short };
}
