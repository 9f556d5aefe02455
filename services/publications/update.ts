import type { z } from "zod";
import {
  expectFinishedCover,
  findPublication,
  type PriceRecord,
  type PublicationChange,
  type PublicationState,
  publicationJson,
  refuseTakenSlug,
  setPublicationArtworks,
  setPublicationPrice,
  updatePublicationStatement,
} from "../../db/queries/publications";
import { expectReferences } from "../../db/queries/rows";
import { artworks } from "../../db/schema";
import { previousAttributes } from "../../lib/json";
import { ApiError } from "../../lib/problem";
import { Publication, type PublicationUpdateInput } from "../../lib/schemas/publications";
import { assetUrl, storagePrefix } from "../../lib/uploads";
import type { ServiceContext } from "../context";
import { changeEvent, guarded, refuseUnlessReplay, updatePlan, writeExisting } from "../write";
import { PUBLICATION_COVER_COLLECTION, PUBLICATION_COVER_PURPOSE } from "./cover";

type Updated = z.output<typeof Publication>;

function coverIssue(message: string): ApiError {
  return new ApiError("invalid_request", `Body field \`cover_image_path\` ${message}.`, [
    { location: "body", field: "cover_image_path", message },
  ]);
}

/** Why `path` cannot become the publication's cover, or null when it can (or is already its cover). */
async function coverRefusal(
  ctx: ServiceContext,
  found: PublicationState,
  path: string,
): Promise<ApiError | null> {
  if (path === found.body.cover_image_path) return null;
  const upload = found.coverUpload;
  if (!upload || upload.purpose !== PUBLICATION_COVER_PURPOSE || upload.resourceId !== found.body.id) {
    return coverIssue(
      "was not minted for this publication's cover (POST /gallery/publications/{id}/cover-upload)",
    );
  }
  if (upload.usedAt === null) {
    return coverIssue("names an upload whose bytes were not PUT yet: PUT them to the signed_url first");
  }
  // The token was spent, yet storage may have lost the bytes (a failed put whose token could not be given back).
  if (!(await ctx.env.UPLOADS.head(path))) {
    return new ApiError(
      "conflict",
      "No bytes are stored at this cover_image_path; mint a new upload target.",
      {
        storage_path: path,
        upload: "missing",
      },
    );
  }
  return null;
}

/**
 * Changes a publication. `published: true` publishes it (published_at now) and `false` unpublishes it
 * (published_at cleared); `artwork_ids` replaces the works (the gallery's, else 400 naming it); `price` writes the
 * gated pricing record (an object: its currency and visibility default to the current price's) and `null`
 * removes it; a new `slug` taken in the gallery is 409; `cover_image_path` must be a finished cover upload of
 * this publication (400 naming it otherwise) and `null` removes the cover. Records `publication.updated` with
 * `previous_attributes`, then `publication.published` / `publication.unpublished` when that changed; a patch that
 * changes nothing writes nothing. A replaced cover's stored object is deleted after the commit.
 */
export async function updatePublication(ctx: ServiceContext, id: string, input: PublicationUpdateInput) {
  const { db, principal } = ctx;
  const galleryId = principal.galleryId;
  const current = await findPublication(db, galleryId, id, input.cover_image_path ?? null);
  if (current && input.cover_image_path) {
    const refused = await coverRefusal(ctx, current, input.cover_image_path);
    if (refused) return refuseUnlessReplay<Updated, 200>(ctx, refused);
  }
  const written = await writeExisting(ctx, current, `No publication ${id} in this gallery.`, (found, at) => {
    const before = found.body;
    const price: PriceRecord | null | undefined =
      input.price === undefined || input.price === null
        ? input.price
        : {
            price_cents: input.price.price_cents,
            currency: input.price.currency ?? before.price?.currency ?? found.defaultCurrency,
            price_visibility: input.price.price_visibility ?? before.price?.price_visibility ?? "private",
          };
    const { price: _price, ...fields } = input;
    const previous = previousAttributes(before, { ...fields, ...(price !== undefined ? { price } : {}) });
    if ("published" in previous) previous.published_at = before.published_at;
    if ("cover_image_path" in previous) previous.cover_image_url = before.cover_image_url;
    const path = input.cover_image_path;
    const change: PublicationChange = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.kind !== undefined ? { kind: input.kind } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...("published" in previous ? { published: input.published === true } : {}),
      ...("cover_image_path" in previous
        ? { cover: path ? { path, url: assetUrl(ctx.env, path) } : null }
        : {}),
    };
    const object = publicationJson(galleryId, id);
    const works = input.artwork_ids !== undefined && "artwork_ids" in previous ? input.artwork_ids : null;
    return updatePlan({
      schema: Publication,
      type: "publication.updated",
      resourceType: "publication",
      id,
      object,
      previous,
      statements: [
        ...(change.slug !== undefined && "slug" in previous
          ? [refuseTakenSlug(galleryId, change.slug, id)]
          : []),
        ...(works?.length ? [expectReferences(artworks, galleryId, works, "artwork_ids")] : []),
        ...(change.cover
          ? [expectFinishedCover(galleryId, id, change.cover.path, PUBLICATION_COVER_PURPOSE)]
          : []),
        guarded(updatePublicationStatement(galleryId, id, change, found.updatedAt, at)),
        ...(works ? setPublicationArtworks(galleryId, id, works, true) : []),
        ...(price !== undefined && "price" in previous
          ? [setPublicationPrice(galleryId, id, price, at)]
          : []),
      ],
      events:
        change.published === undefined
          ? []
          : [
              changeEvent(
                change.published ? "publication.published" : "publication.unpublished",
                "publication",
                id,
                object,
              ),
            ],
    });
  });
  // A replaced or removed cover of this publication's own is no longer reachable: its object goes.
  const old = current?.body.cover_image_path ?? null;
  const next = input.cover_image_path;
  if (
    !written.replayed &&
    old !== null &&
    next !== undefined &&
    next !== old &&
    old.startsWith(storagePrefix(galleryId, PUBLICATION_COVER_COLLECTION, id))
  ) {
    ctx.waitUntil(ctx.env.UPLOADS.delete(old));
  }
  return written;
}

/** Unpublishes the publication: PATCH with `published: false`. */
export function unpublishPublication(ctx: ServiceContext, id: string) {
  return updatePublication(ctx, id, { published: false });
}
