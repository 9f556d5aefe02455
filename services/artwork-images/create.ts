import type { z } from "zod";
import {
  artworkImageResource,
  findAttachState,
  insertArtworkImage,
  lockArtwork,
  openPosition,
  refreshArtworkImages,
} from "../../db/queries/artwork-images";
import { nextTimestamp } from "../../db/queries/rows";
import { ApiError } from "../../lib/problem";
import {
  ArtworkImage,
  type ArtworkImageCreateInput,
  MAX_IMAGES_PER_ARTWORK,
} from "../../lib/schemas/artwork-images";
import { assetUrl } from "../../lib/uploads";
import type { ServiceContext } from "../context";
import { changeEvent, executeWrite, refuseUnlessReplay } from "../write";
import { ARTWORK_IMAGE_PURPOSE } from "./upload";

type Created = z.output<typeof ArtworkImage>;

function storagePathIssue(message: string) {
  return [{ location: "body" as const, field: "storage_path", message }];
}

/** The image's own id: the file name of its storage path, minted with it (`…/img_….png` → `img_…`). */
function imageIdOf(storagePath: string): string {
  const file = storagePath.slice(storagePath.lastIndexOf("/") + 1);
  return file.slice(0, file.indexOf("."));
}

/** Why the upload at this path cannot become an image of this artwork, or null when it can. */
async function refusal(
  ctx: ServiceContext,
  artworkId: string,
  storagePath: string,
): Promise<ApiError | null> {
  const { db, principal } = ctx;
  const state = await findAttachState(db, principal.galleryId, artworkId, storagePath);
  if (!state.artworkExists) return new ApiError("not_found", `No artwork ${artworkId} in this gallery.`);
  const upload = state.upload;
  if (!upload || upload.purpose !== ARTWORK_IMAGE_PURPOSE || upload.resourceId !== artworkId) {
    const message = "was not minted for an image of this artwork (POST …/images/uploads)";
    return new ApiError(
      "invalid_request",
      `Body field \`storage_path\` ${message}.`,
      storagePathIssue(message),
    );
  }
  if (state.attached) {
    return new ApiError("conflict", "The upload at this storage_path is already attached as an image.", {
      storage_path: storagePath,
    });
  }
  if (upload.usedAt === null) {
    return new ApiError(
      "conflict",
      "Nothing was uploaded to this storage_path yet: PUT the bytes to the signed_url first.",
      { storage_path: storagePath, upload: "pending" },
    );
  }
  if (state.imageCount >= MAX_IMAGES_PER_ARTWORK) {
    return new ApiError("conflict", `An artwork holds at most ${MAX_IMAGES_PER_ARTWORK} images.`, {
      max_images: MAX_IMAGES_PER_ARTWORK,
    });
  }
  return null;
}

/**
 * Attaches an uploaded object to the artwork as an image, at `position` or last. The same transaction moves
 * the images after it, and sets the artwork's image_count and thumbnail_url; records `artwork_image.created`.
 */
export async function createArtworkImage(
  ctx: ServiceContext,
  artworkId: string,
  input: ArtworkImageCreateInput,
) {
  const { principal } = ctx;
  const galleryId = principal.galleryId;
  const path = input.storage_path;
  const refused = await refusal(ctx, artworkId, path);
  if (refused) return refuseUnlessReplay<Created, 201>(ctx, refused);
  // The token was spent, yet storage may have lost the bytes (a failed put whose token could not be given back).
  const stored = await ctx.env.UPLOADS.head(path);
  if (!stored) {
    return refuseUnlessReplay<Created, 201>(
      ctx,
      new ApiError("conflict", "No bytes are stored at this storage_path; mint a new upload target.", {
        storage_path: path,
        upload: "missing",
      }),
    );
  }
  const dimension = (name: string) => {
    const value = Number(stored.customMetadata?.[name]);
    return Number.isInteger(value) && value > 0 ? value : null;
  };
  const id = imageIdOf(path);
  const at = nextTimestamp();
  const position = input.position ?? null;
  const object = artworkImageResource.jsonById(galleryId, id, {});
  return executeWrite(ctx, {
    schema: ArtworkImage,
    statements: [
      lockArtwork(galleryId, artworkId),
      ...(position !== null ? [openPosition(artworkId, position, at)] : []),
      insertArtworkImage(
        galleryId,
        artworkId,
        {
          id,
          storagePath: path,
          url: assetUrl(ctx.env, path),
          caption: input.caption ?? null,
          width: dimension("width"),
          height: dimension("height"),
          contentType: stored.httpMetadata?.contentType ?? "application/octet-stream",
          sizeBytes: stored.size,
        },
        position,
        at,
      ),
      refreshArtworkImages(galleryId, artworkId, at),
    ],
    events: [changeEvent("artwork_image.created", "artwork_image", id, object)],
    status: 201,
    body: object,
  });
}
