import { sql } from "drizzle-orm";
import { httpDb } from "../../db/client";
import {
  activityInsert,
  artworkReferenceChecks,
  updateArtworkRelations,
  updateArtworkStatement,
} from "../../db/queries/artwork-writes";
import { artworkJsonById, findArtwork } from "../../db/queries/artworks";
import type { DomainEventInput } from "../../db/queries/outbox";
import { nextTimestamp } from "../../db/queries/rows";
import type { Router } from "../../lib/http/app";
import { operation } from "../../lib/http/operation";
import { executeWrite, guarded, notFoundUnlessReplay } from "../../lib/http/write";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import { Artwork, ArtworkIdParams, ArtworkUpdate, type ArtworkUpdateInput } from "../../lib/schemas/artworks";

const route = operation({
  operationId: "updateArtwork",
  method: "patch",
  path: "/gallery/artworks/{id}",
  tags: ["Artworks"],
  summary: "Update an artwork",
  description:
    "Changes only the fields sent; `artists`, `dimensions` and `tag_ids` replace the whole list. Emits `artwork.updated` with `previous_attributes`, and `artwork.price_changed` when price_cents or currency change. A request that changes nothing emits nothing.",
  auth: { scopes: ["artworks:update"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { title: "Untitled (Red)" },
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkUpdate } } },
  },
  responses: {
    200: { description: "The updated artwork.", content: { "application/json": { schema: Artwork } } },
  },
});

/**
 * The former values of the fields this patch changes. `artists`, `dimensions` and `tag_ids` are written as
 * whole lists in another shape than they are read, so sending one counts as a change (tags are not part of
 * the Artwork: their former value is null).
 */
function artworkPreviousAttributes(before: Record<string, unknown>, input: ArtworkUpdateInput) {
  const { artists, dimensions, tag_ids, ...scalars } = input;
  return {
    ...previousAttributes(before, scalars),
    ...(artists ? { artists: before.artists } : {}),
    ...(dimensions ? { dimensions: before.dimensions } : {}),
    ...(tag_ids ? { tag_ids: null } : {}),
  };
}

export function registerArtworksUpdate(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const principal = c.get("principal");
    const view = { draft: false, gatePrices: principal.readOnly };
    const current = await findArtwork(httpDb(c.env), principal.galleryId, id, view);
    if (!current) return notFoundUnlessReplay(c, `No artwork ${id} in this gallery.`) as never;
    const before = current.body;
    const merged = {
      year: before.year as number | null,
      end_year: before.end_year as number | null,
      ...input,
    };
    if (merged.year != null && merged.end_year != null && merged.end_year < merged.year) {
      throw new ApiError("invalid_request", "Body field `end_year` must not be before year.", [
        { location: "body", field: "end_year", message: "must not be before year" },
      ]);
    }
    const previous = artworkPreviousAttributes(before, input);
    const object = artworkJsonById(principal.galleryId, id, view);
    // Nothing changes: no write and no event, but the idempotency claim is still recorded (or replayed).
    if (Object.keys(previous).length === 0) {
      return executeWrite(c, { statements: [], events: [], status: 200, body: object }) as never;
    }

    const at = nextTimestamp(current.updatedAt);
    const events: DomainEventInput[] = [
      {
        type: "artwork.updated",
        resourceType: "artwork",
        resourceId: id,
        data: sql`jsonb_build_object('object', (${object}), 'previous_attributes', ${JSON.stringify(previous)}::jsonb)`,
      },
    ];
    const activity = [];
    if ("price_cents" in previous || "currency" in previous) {
      const priceBefore = { price_cents: before.price_cents, currency: before.currency };
      events.push({
        type: "artwork.price_changed",
        resourceType: "artwork",
        resourceId: id,
        data: sql`jsonb_build_object('object', (${object}), 'previous_attributes', ${JSON.stringify(priceBefore)}::jsonb)`,
      });
      activity.push(
        activityInsert(principal.galleryId, id, principal.credentialId, at, {
          eventType: "price_changed",
          summary: "Price changed",
          metadata: {
            from: priceBefore,
            to: {
              price_cents: input.price_cents ?? before.price_cents,
              currency: input.currency ?? before.currency,
            },
          },
        }),
      );
    }
    if ("location_id" in previous) {
      activity.push(
        activityInsert(principal.galleryId, id, principal.credentialId, at, {
          eventType: "moved",
          summary: "Location changed",
          metadata: { from: before.location_id, to: input.location_id },
        }),
      );
    }
    return executeWrite(c, {
      statements: [
        ...artworkReferenceChecks(principal.galleryId, input),
        guarded(updateArtworkStatement(principal.galleryId, id, input, current.updatedAt, at)),
        ...updateArtworkRelations(principal.galleryId, id, input),
        ...activity,
      ],
      events,
      status: 200,
      body: object,
    }) as never;
  });
}
