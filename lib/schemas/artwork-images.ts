import { z } from "@hono/zod-openapi";
import { idString } from "../params";
import { TimestampOut } from "../time";
import { ImageContentType, STORAGE_PATH_SHAPE } from "./uploads";

/** The most images one artwork holds; its image list is one page. */
export const MAX_IMAGES_PER_ARTWORK = 100;
/** The largest artwork image an upload accepts (20 MiB). */
export const MAX_ARTWORK_IMAGE_BYTES = 20 * 1024 * 1024;

const captionText =
  "The caption shown with the image (a view, a detail, a photographer's credit); null for none.";
const caption = z.string().max(1000).nullable().openapi({ description: captionText });
const position = z
  .number()
  .int()
  .min(0)
  .max(MAX_IMAGES_PER_ARTWORK - 1)
  .openapi({
    description:
      "0-based place in the artwork's image order; the images from there on move one place down. Beyond the end, the last place.",
  });

export const ArtworkImage = z
  .object({
    id: z.string().openapi({
      example: "img_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The image's id (`img_…`): prefixed and time-ordered; unique, never reused.",
    }),
    artwork_id: z.string(),
    url: z.string().openapi({ description: "Where the image is served (GET /v1/assets/…), publicly." }),
    storage_path: z.string().openapi({
      description:
        "Where the image's file is stored (`galleries/<gallery>/artworks/<artwork>/<image>.<ext>`): the upload target's `storage_path` it was attached from.",
    }),
    caption: z.string().nullable().openapi({ description: captionText }),
    position: z
      .number()
      .int()
      .openapi({ description: "0-based; the image at 0 is the artwork's thumbnail." }),
    width: z.number().int().nullable().openapi({
      description: "Width in pixels, read from the file's header; null when it could not be read.",
    }),
    height: z.number().int().nullable().openapi({
      description: "Height in pixels, read from the file's header; null when it could not be read.",
    }),
    content_type: z.string().nullable().openapi({
      description:
        "The file's media type (`image/jpeg`, `image/png`, `image/webp`, `image/gif`); null when not known.",
    }),
    size_bytes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The file's size in bytes; null when not known." }),
    created_at: TimestampOut,
    updated_at: TimestampOut,
  })
  .openapi("ArtworkImage");

export const ArtworkImageList = z
  .object({
    data: z.array(ArtworkImage),
    next_cursor: z.null().openapi({
      description: `Always null: an artwork holds at most ${MAX_IMAGES_PER_ARTWORK} images, all in this one page.`,
    }),
  })
  .openapi("ArtworkImageList");

export const ArtworkImageUploadCreate = z
  .strictObject({
    size_bytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_ARTWORK_IMAGE_BYTES)
      .optional()
      .openapi({
        description: `The file's size; the upload then accepts exactly up to it. Default (and most): ${MAX_ARTWORK_IMAGE_BYTES} bytes.`,
      }),
    content_type: ImageContentType,
  })
  .openapi("ArtworkImageUploadCreate");

export const ArtworkImageCreate = z
  .strictObject({
    caption: caption.optional(),
    storage_path: z
      .string()
      .max(300)
      .regex(STORAGE_PATH_SHAPE, { message: "is not a storage path minted by this API" })
      .openapi({
        description:
          "The `storage_path` of an upload target minted for this artwork (POST …/images/uploads) whose PUT has completed.",
      }),
    position: position.optional(),
  })
  .openapi("ArtworkImageCreate");
export type ArtworkImageCreateInput = z.infer<typeof ArtworkImageCreate>;

export const ArtworkImageUpdate = z
  .strictObject({
    caption: caption.optional(),
    position: position.optional(),
  })
  .openapi("ArtworkImageUpdate");
export type ArtworkImageUpdateInput = z.infer<typeof ArtworkImageUpdate>;

export const ArtworkImageParams = z.strictObject({
  id: idString("art").openapi({ param: { name: "id", in: "path" } }),
  imageId: idString("img").openapi({ param: { name: "imageId", in: "path" } }),
});
