import { z } from "@hono/zod-openapi";
import { imageTypes } from "../image-type";
import { TimestampOut } from "../time";
import { UPLOAD_TOKEN_SHAPE, UPLOAD_TTL_SECONDS } from "../uploads";

/** A storage path as the server derives it: galleries/<gallery>/<collection>/<owner>/<file>.<ext>. */
export const STORAGE_PATH_SHAPE =
  /^galleries\/[a-z]{2,6}_[0-9a-z]{10,40}\/[a-z_]{1,40}\/[a-z]{2,6}_[0-9a-z]{10,40}\/[a-z]{2,6}_[0-9a-z]{10,40}\.(jpg|png|webp|gif)$/;

export const ImageContentType = z.enum(imageTypes).openapi({
  description: "The image's media type: image/jpeg, image/png, image/webp or image/gif.",
  example: "image/png",
});

export const SignedUploadTarget = z
  .object({
    storage_path: z.string().openapi({
      description:
        "Where the object will be stored, chosen by the server: `galleries/<gallery>/<collection>/<owner>/<file>.<ext>`. Pass it to the write that attaches the upload.",
      example:
        "galleries/gal_01jd4xk9v2c7h8m3n5p6q7r8s9/artworks/art_01jd4xk9v2c7h8m3n5p6q7r8s9/img_01jd4xk9v2c7h8m3n5p6q7r8s9.png",
    }),
    token: z.string().nullable().openapi({
      description:
        "The one-time upload token (`gupl_…`), also the last segment of `signed_url`. Shown in this response only: an idempotent replay (`Idempotent-Replayed: true`) carries null; mint again if it was lost.",
    }),
    signed_url: z
      .string()
      .nullable()
      .openapi({
        description: `PUT the bytes here, once, within ${UPLOAD_TTL_SECONDS / 60} minutes of minting, with \`Content-Type\` set to the minted \`content_type\`, at most the minted \`size_bytes\` (or the collection's limit), and no other credential. Null in an idempotent replay, like \`token\`.`,
      }),
  })
  .openapi("SignedUploadTarget", {
    description:
      "Exactly the specification's fields. How to use the URL (PUT, the content type and size the mint named, the expiry) is fixed by the mint request and this description, so the target repeats none of it.",
  });

export const UploadTokenParams = z.strictObject({
  token: z
    .string()
    .regex(UPLOAD_TOKEN_SHAPE, { message: "is not an upload token" })
    .openapi({ param: { name: "token", in: "path" }, example: `gupl_${"A".repeat(43)}` }),
});

export const StoredUpload = z
  .object({
    storage_path: z.string().openapi({
      description:
        "Where the object is stored: the minted target's `storage_path`, to pass to the write that attaches it (an artwork image, a publication cover).",
    }),
    url: z.string().openapi({ description: "Where the stored object is served (GET /v1/assets/…)." }),
    content_type: ImageContentType,
    size_bytes: z.number().int().openapi({ description: "The size of the stored bytes." }),
    width: z.number().int().nullable().openapi({ description: "Pixels, read from the image's header." }),
    height: z.number().int().nullable().openapi({ description: "Pixels, read from the image's header." }),
    uploaded_at: TimestampOut.openapi({
      description: "When this PUT stored the object and used up the upload URL (UTC, milliseconds).",
    }),
  })
  .openapi("StoredUpload");
