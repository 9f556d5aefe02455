import { z } from "@hono/zod-openapi";
import { artworkList } from "../../db/queries/artworks";
import type { Router } from "../../http/app";
import { listPage } from "../../http/list";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { listResponse, paginationQuery } from "../../lib/pagination";
import {
  boolParam,
  csvParam,
  idString,
  intParam,
  MAX_SAFE,
  nonNegativeNumberParam,
  repeatable,
} from "../../lib/params";
import {
  Artwork,
  availabilityStates,
  conditionStatuses,
  markets,
  ownershipStatuses,
  readinessValues,
} from "../../lib/schemas/artworks";
import { listArtworks } from "../../services/artworks/read";

const ArtworkList = listResponse(Artwork, "ArtworkList");

const query = z
  .strictObject({
    ...paginationQuery(artworkList),
    ids: csvParam(idString("art"), {
      max: 50,
      description: "Comma-separated artwork ids, 1 to 50.",
    }).optional(),
    q: z.string().max(200).optional().openapi({
      description:
        "Free text; every word must appear in the title, artist, medium, inventory number or date.",
    }),
    availability: repeatable(z.enum(availabilityStates), { max: 10, description: "Repeatable." }).optional(),
    ownership: repeatable(z.enum(ownershipStatuses), { max: 10, description: "Repeatable." }).optional(),
    condition: repeatable(z.enum(conditionStatuses), { max: 10, description: "Repeatable." }).optional(),
    market: repeatable(z.enum(markets), { max: 10, description: "Repeatable." }).optional(),
    artist_id: idString("artist")
      .optional()
      .openapi({ description: "Works crediting this artist in any role." }),
    medium: repeatable(z.string().min(1).max(200), {
      max: 20,
      description: "Repeatable; case-insensitive exact medium, e.g. `Oil on canvas`.",
    }).optional(),
    price_min: intParam({ min: 0, max: MAX_SAFE, description: "Inclusive, in cents." }).optional(),
    price_max: intParam({ min: 0, max: MAX_SAFE, description: "Inclusive, in cents." }).optional(),
    year_min: intParam({ min: -MAX_SAFE, max: MAX_SAFE, description: "Inclusive." }).optional(),
    year_max: intParam({ min: -MAX_SAFE, max: MAX_SAFE, description: "Inclusive." }).optional(),
    height_min: nonNegativeNumberParam({ description: "Inclusive, cm." }).optional(),
    height_max: nonNegativeNumberParam({ description: "Inclusive, cm." }).optional(),
    width_min: nonNegativeNumberParam({ description: "Inclusive, cm." }).optional(),
    width_max: nonNegativeNumberParam({ description: "Inclusive, cm." }).optional(),
    unpriced: boolParam("true: only works with no price; false: only priced works.").optional(),
    published: boolParam("true: only published works; false: only unpublished ones.").optional(),
    has_image: boolParam("true: only works with at least one image; false: only works without.").optional(),
    tag_id: repeatable(idString("tag"), {
      max: 10,
      description: "Repeatable, 1 to 10; works with any of these tags.",
    }).optional(),
    readiness: csvParam(z.enum(readinessValues), {
      max: 3,
      description: "Comma-separated set of ready, thin, empty. Unjudged works match none.",
    }).optional(),
    disclosure: boolParam(
      "true: works whose condition notes describe damage or restoration a buyer must be told about; false: judged works with none. Unjudged works match neither.",
    ).optional(),
    draft: boolParam(
      "true: the editor's working copy (pending draft edits overlaid) instead of the published state.",
    ).optional(),
  })
  .superRefine((v, ctx) => {
    const ranges = [
      ["price_min", "price_max"],
      ["year_min", "year_max"],
      ["height_min", "height_max"],
      ["width_min", "width_max"],
    ] as const;
    for (const [min, max] of ranges) {
      const lo = v[min];
      const hi = v[max];
      if (lo !== undefined && hi !== undefined && lo > hi) {
        ctx.addIssue({ code: "custom", path: [max], message: `must be greater than or equal to ${min}` });
      }
    }
  });

const route = operation({
  operationId: "listArtworks",
  method: "get",
  path: "/gallery/artworks",
  tags: ["Artworks"],
  summary: "List artworks",
  description:
    "Newest first by default. Filters combine with AND; repeated values of one filter combine with OR. Under `sort=price` unpriced works sort below every priced one, under `sort=year` undated works below every dated one.",
  auth: { scopes: ["artworks:read", "artists:read"] },
  list: artworkList,
  gatedPrices: ["formats[].price_cents"],
  request: { query },
  responses: {
    200: {
      description: "A page of artworks.",
      content: { "application/json": { schema: ArtworkList } },
    },
  },
});

export function registerArtworksList(app: Router): void {
  app.openapi(route, async (c) => {
    const { limit, cursor, sort, dir, draft, ...filters } = c.req.valid("query");
    const ctx = serviceContext(c);
    return listPage<z.infer<typeof ArtworkList>>(c, route, { limit, cursor, sort, dir }, (page) =>
      listArtworks(ctx, { draft: draft === true }, filters, page),
    );
  });
}
