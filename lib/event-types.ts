import { z } from "@hono/zod-openapi";

/**
 * The catalogue of domain event types (`<resource>.<past-tense verb>`). Each entry says when it is emitted;
 * the `data` of every event is `{ object }` (the resource after the change) plus, for updates,
 * `previous_attributes` (the changed fields' former values).
 */
export const eventTypes = {
  "artwork.created": "An artwork was created.",
  "artwork.updated": "An artwork's fields changed. `data.previous_attributes` holds the former values.",
  "artwork.price_changed": "An artwork's price_cents or currency changed (emitted beside artwork.updated).",
  "artwork.deleted": "An artwork was deleted. `data.object` is its last state.",
  "artwork_image.created":
    "An uploaded image was attached to an artwork (the artwork's image_count and thumbnail_url changed with it).",
  "artwork_image.updated":
    "An artwork image's caption or position changed. `data.previous_attributes` holds the former values.",
  "artwork_image.deleted": "An image was removed from an artwork. `data.object` is its last state.",
  "artwork_format.created":
    "A format (sellable variant) was added to an artwork; on a published work, to its draft. `data.object` is the format as the working copy holds it.",
  "artwork_format.updated":
    "A format's fields changed (on a published work, in its draft). `data.previous_attributes` holds the former values.",
  "artwork_format.deleted":
    "A format was removed from an artwork (on a published work, from its draft). `data.object` is its last state.",
  "artwork.draft_updated":
    "A published artwork's working copy changed (the live work did not). `data.object` is the working copy; `data.previous_attributes` holds the working copy's former values.",
  "artwork.published":
    "An artwork's working copy was published: `data.object` is the live work, with its new `published_version`. The changes it made live are also recorded as `artwork.updated` (and `artwork.price_changed`) just before.",
  "artwork.draft_discarded":
    "An artwork's pending draft was dropped: the working copy is the published state again. `data.object` is the (unchanged) live work.",
  "artwork.interest_recorded":
    "A member recorded a contact's interest in an artwork (POST /gallery/artworks/{id}/events). `data.object` is the timeline entry.",
  "auction_record.created": "An auction record was added to an artwork's history.",
  "auction_record.deleted":
    "An auction record was removed from an artwork's history. `data.object` is its last state.",
  "artist.created": "An artist was added to the catalogue.",
  "artist.updated": "An artist's fields changed. `data.previous_attributes` holds the former values.",
  "artist.deleted": "An artist was deleted. `data.object` is their last state.",
  "tag.created": "A tag was created.",
  "tag.updated": "A tag was renamed. `data.previous_attributes` holds the former name.",
  "tag.deleted":
    "A tag was deleted and taken off every artwork and contact that carried it. `data.object` is its last state.",
  "custom_status.created": "A custom status was created.",
  "custom_status.updated":
    "A custom status's fields changed. `data.previous_attributes` holds the former values.",
  "custom_status.deleted": "A custom status was deleted. `data.object` is its last state.",
  "location.created": "A location was created.",
  "location.updated": "A location's fields changed. `data.previous_attributes` holds the former values.",
  "location.deleted": "A location was deleted. `data.object` is its last state.",
  "private_note.created":
    "A private note was added to a contact. `data.object` is the note without its body: the text is confidential and only editors read it (GET /gallery/contacts/{id}/private-notes).",
  "contact_list.created": "A contact list (static or dynamic) was created.",
  "contact_list.updated":
    "A contact list's title, kind, description or (dynamic lists) dynamic_query changed. `data.previous_attributes` holds the former values.",
  "contact_list.deleted": "A contact list was deleted with its memberships. `data.object` is its last state.",
  "contact_list.members_added":
    "Contacts joined a static list. `data.object.list` is the list after the change; `data.object.contact_ids` the contacts that joined.",
  "contact_list.member_removed":
    "A contact was taken off a static list. `data.object.list` is the list after the change; `data.object.contact_ids` holds the contact.",
  "contact.created": "A contact was added to the roster.",
  "contact.updated":
    "A contact's fields, assignees, tags, email consent or profiles changed. `data.previous_attributes` holds the former values of the Contact's fields that changed, and the former `updated_at` when tags or email consent changed (GET /gallery/contacts/{id}/segmentation).",
  "contact.deleted":
    "A contact was erased with what was recorded about it (its sales stay, with no contact). `data.object` is its last state.",
  "contact.archived":
    "A contact was put on the archive shelf: hidden from the default roster and from dynamic lists, still readable by id.",
  "contact.restored": "An archived contact was taken off the archive shelf, back onto the roster.",
  "interaction.created":
    "An interaction (note, call, email, meeting, visit, …) was recorded on a contact. The contact's last_interaction_at/_type moved with it when it is the newest; with an artwork_id, the work's timeline gained an `interaction` entry.",
  "engagement_event.recorded":
    "A contact's engagement event (one of the `engaged_event` kinds) was recorded, through the API or a public viewing room.",
  "sale.created": "A sale was recorded. When completed, the buyer's spend grew with it.",
  "sale.updated":
    "A sale's status, amounts, date, buyer, works or metadata changed; the buyers' spend followed. `data.previous_attributes` holds the former values.",
  "sale.deleted":
    "A sale was deleted; a completed one left its buyer's spend. `data.object` is its last state.",
  "task.created": "A task was added to a contact.",
  "task.updated":
    "A task's fields changed, or it was marked done or reopened. `data.previous_attributes` holds the former values.",
  "task.deleted": "A task was deleted. `data.object` is its last state.",
  "fair_run.created": "A fair-submission run was started: running, at step 0, with an empty action log.",
  "fair_run.updated":
    "A fair run's status, step count, error or action log changed. `data.previous_attributes` holds the former values of status, step_count and error that changed; `data.appended_actions` the actions appended (as stored); `data.approved_positions` the log positions of gated actions newly approved.",
  "fair_run.succeeded":
    "A fair run finished successfully, every gated action approved (emitted beside fair_run.updated).",
  "fair_run.failed":
    "A fair run finished with a failure; `data.object.error` says why when the run reported it (emitted beside fair_run.updated).",
  "fair_run.cancelled": "A fair run was cancelled before it finished (emitted beside fair_run.updated).",
  "invoice.created":
    "An invoice was created, as a draft or issued (`unpaid`), with the next number of the gallery's sequence.",
  "invoice.updated":
    "An invoice changed: status, dates, amounts, payment, addresses or other fields. `data.previous_attributes` holds the former values of every Invoice field that moved, computed ones included (total_cents, base_amount_cents), and the former `updated_at` when the billed contact changed (GET /gallery/invoices/{id}/billing).",
  "invoice.issued":
    "An invoice was issued: created as `unpaid`, or a draft moved to `unpaid` (emitted beside invoice.created or invoice.updated).",
  "invoice.payment_recorded":
    "amount_paid_cents grew (emitted beside invoice.updated). `data.previous_attributes.amount_paid_cents` is the amount paid before, so the payment is the difference.",
  "invoice.payment_reversed":
    "Part or all of an invoice's recorded payments was taken back (POST /gallery/invoices/{id}/payment-reversals), emitted beside invoice.updated. `data.reversal` is the reversal (amount_cents, reason, note); `data.previous_attributes.amount_paid_cents` the amount paid before it; `data.object` the invoice after it, its status following the money.",
  "invoice.paid": "An invoice became paid in full (emitted beside invoice.updated).",
  "invoice.voided": "A draft or unpaid invoice was voided (emitted beside invoice.updated); void is final.",
  "invoice.archived":
    "An invoice was put on the archive shelf: left out of the default list, still readable by id.",
  "invoice.restored": "An archived invoice was taken off the archive shelf, back into the default list.",
  "inbox_connection.created":
    "A member connected an account (email, WhatsApp, SMS) to their inbox. `data.object` leaves out the address: the inbox is member-private.",
  "inbox_connection.updated":
    "A member changed a connection: its provider, or the names of the provider secrets set (never their values). `data.previous_attributes` holds the former values; `data.object` leaves out the address.",
  "inbox_connection.deleted":
    "A member disconnected an account; its threads stay without a connection. `data.object` is its last state, without the address.",
  "inbox_message.received":
    "An inbound message was delivered to a member's inbox. `data.object` names the message, its thread, member, channel and contact, never its content.",
  "inbox_message.sent":
    "An outbound message (one the member sent) was delivered to their inbox. `data.object` carries no content.",
  "inbox_thread.updated":
    "A thread's state, snooze, assignee or triage changed. `data.previous_attributes` holds the former values (triage: the sub-fields that changed). `data.object` carries no content.",
  "inbox_thread.marked_read": "A member marked a thread read; `data.object.unread_count` is 0.",
  "inbox_thread.marked_unread":
    "A member marked a thread unread: all its inbound messages are unread again (`data.object.unread_count`).",
  "viewing_room.created": "A viewing room was created.",
  "viewing_room.updated":
    "A viewing room changed: its fields, visibility, open or close times, publication or works (`artworks` replaces the set). `data.previous_attributes` holds the former values (`artworks`: the works as they were).",
  "viewing_room.deleted": "A viewing room was deleted. `data.object` is its last state.",
  "show.created": "A show was created.",
  "show.updated":
    "A show changed: title, dates, status, venue or its works. `data.previous_attributes` holds the former values of the fields that changed.",
  "show.deleted": "A show was deleted with its tags; `data.object` is its last state.",
  "match.created":
    "The engine matched a work to a contact at or above the visible floor (0.6) for the first time. `data.object` is the match.",
  "match.updated":
    "A match's status changed (its work was sold, reserved, unpublished or came back; a member dismissed or restored it) or its probability crossed the visible floor. `data.previous_attributes` holds the former values.",
  "match.deleted":
    "The engine dropped a pair it had stored at or above the visible floor (the work or contact no longer a candidate). `data.object` is its last state.",
  "match.feedback_recorded":
    "A member gave feedback on a match: `data.feedback` holds the action (hide, unhide, not_interested, good_match), hidden_until and member_id; `data.object` is the match after it and `data.previous_attributes` the fields it changed.",
  "show_tag.created":
    "A tag was applied to a show (`data.object.origin`: manual or ai_suggested); `data.show_id` names the show.",
  "show_tag.updated":
    "A show's tag changed name, colour, facet or origin. `data.previous_attributes` holds the former values; `data.show_id` names the show.",
  "show_tag.deleted":
    "A tag was removed from a show; `data.object` is its last state and `data.show_id` names the show.",
  "publication.created":
    "A publication was created. A read-only caller sees `data.object.price` as null in events.",
  "publication.updated":
    "A publication changed: fields, works, price, cover, or published state. `data.previous_attributes` holds the former values of the fields that changed.",
  "publication.published":
    "A publication was published: created with `published: true`, or published by PATCH (emitted beside publication.created or publication.updated).",
  "publication.unpublished":
    "A publication was unpublished by PATCH `published: false` or POST …/unpublish (emitted beside publication.updated).",
  "publication.deleted": "A publication was deleted; `data.object` is its last state.",
  "offer.created": "An offer was created, as a draft.",
  "offer.updated":
    "An offer's title, message, currency, status or schedule changed. `data.previous_attributes` holds the former values.",
  "offer.scheduled":
    "A draft offer was scheduled to be sent at `scheduled_at` (emitted beside offer.updated).",
  "offer.sent":
    "An offer was recorded as sent: by the gallery (PATCH), or by the platform once its `scheduled_at` came. Its pending recipients became `sent` (emitted beside offer.updated). The API sends no email itself.",
  "offer.cancelled":
    "A draft or scheduled offer was cancelled (emitted beside offer.updated); cancelled is final.",
  "offer.deleted":
    "An offer was deleted with its items and recipients. `data.object` is its last state. A dry run records nothing.",
  "offer.items_replaced":
    "An offer's whole item set was replaced. `data.object.offer` is the offer after the change; `data.object.artwork_ids` its works in position order.",
  "offer.recipients_added":
    "Contacts were added to an offer. `data.object.offer` is the offer after the change; `data.object.contact_ids` the contacts that joined.",
  "offer.recipient_removed":
    "A contact was taken off an offer. `data.object.offer` is the offer after the change; `data.object.contact_ids` holds the contact.",
  "api_key.created":
    "A secret API key or publishable token was created. `data.object` is the key without its secret.",
  "api_key.revoked": "An API key or publishable token was revoked. `data.object` is the revoked key.",
  "member.updated":
    "A member's role changed, or it was disabled or re-enabled. `data.previous_attributes` holds the former values.",
  "webhook_endpoint.created":
    "A webhook endpoint was created. `data.object` is the endpoint; secrets never appear in events.",
  "webhook_endpoint.updated":
    "A webhook endpoint's fields changed. `data.previous_attributes` holds the former values.",
  "webhook_endpoint.deleted": "A webhook endpoint was deleted. `data.object` is its last state.",
  "webhook_endpoint.disabled":
    "The platform disabled a webhook endpoint: it answered 410 Gone, or its deliveries failed continuously for 5 days. `data.object.disabled_reason` says which.",
  "webhook_endpoint.secret_rotated":
    "A webhook endpoint's signing secret was rotated. `data.object.previous_secret_expires_at` is when the former secret stops signing.",
  "webhook_endpoint.test":
    "Sent by POST /gallery/webhook-endpoints/{id}/test to that one endpoint only, whatever its event_types; never fanned out to other endpoints. `data.object` is the endpoint.",
} as const;

export type EventType = keyof typeof eventTypes;

export const EventTypeSchema = z
  .enum(Object.keys(eventTypes) as [EventType, ...EventType[]])
  .openapi("EventType", {
    description: Object.entries(eventTypes)
      .map(([type, when]) => `- \`${type}\`: ${when}`)
      .join("\n"),
  });
