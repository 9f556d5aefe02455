import {
  insertPublication,
  publicationJson,
  refuseTakenSlug,
  setPublicationArtworks,
  setPublicationPrice,
} from "../../db/queries/publications";
import { expectReferences, nextTimestamp } from "../../db/queries/rows";
import { artworks } from "../../db/schema";
import { newId } from "../../lib/ids";
import { Publication, type PublicationCreateInput } from "../../lib/schemas/publications";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite } from "../write";

/** The longest slug derived from a title, leaving room for a `-<n>` suffix. */
const DERIVED_SLUG_LENGTH = 80;

/**
 * A slug from a title: accents dropped, lower case, every run of other characters a single hyphen, at most 80
 * characters; `publication` when nothing is left.
 */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, DERIVED_SLUG_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug || "publication";
}

/**
 * Creates a publication. A given slug taken in the gallery is 409 naming the publication that has it; without
 * one, the slug is derived from the title (`-2`, `-3`… when taken). `published: true` sets published_at; a
 * `price` writes the gated pricing record in the same transaction; the works must be the gallery's (400 naming
 * `artwork_ids`). Records `publication.created`, then `publication.published` when it is published.
 */
export function createPublication(ctx: ServiceContext, input: PublicationCreateInput) {
  const galleryId = ctx.principal.galleryId;
  const id = newId("pub");
  const at = nextTimestamp();
  const object = publicationJson(galleryId, id);
  const works = input.artwork_ids ?? [];
  const published = input.published ?? false;
  const base = slugFromTitle(input.title);
  const slug = input.slug ? { given: input.slug } : { base, fallback: `${base}-${id.slice(-10)}` };
  return executeWrite(ctx, {
    schema: Publication,
    statements: [
      ...(input.slug ? [refuseTakenSlug(galleryId, input.slug, id)] : []),
      ...(works.length ? [expectReferences(artworks, galleryId, works, "artwork_ids")] : []),
      insertPublication(
        galleryId,
        {
          id,
          title: input.title,
          slug,
          kind: input.kind ?? "catalogue",
          body: input.body ?? null,
          visibility: input.visibility ?? "private",
          published,
        },
        at,
      ),
      ...setPublicationArtworks(galleryId, id, works, false),
      ...(input.price
        ? [
            setPublicationPrice(
              galleryId,
              id,
              {
                price_cents: input.price.price_cents,
                currency: input.price.currency ?? null,
                price_visibility: input.price.price_visibility ?? "private",
              },
              at,
            ),
          ]
        : []),
    ],
    events: [
      changeEvent("publication.created", "publication", id, object),
      ...(published ? [changeEvent("publication.published", "publication", id, object)] : []),
    ],
    status: 201,
    body: object,
  });
}
