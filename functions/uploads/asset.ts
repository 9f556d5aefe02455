import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { imageTypes } from "../../lib/image-type";
import { ApiError, addressRateLimitedResponses, problemResponses } from "../../lib/problem";
import { ASSET_CACHE_CONTROL } from "../../lib/uploads";

const id = z
  .string()
  .regex(/^[a-z]{2,6}_[0-9a-z]{10,40}$/, { message: "is not an id" })
  .openapi({ example: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" });

const AssetParams = z.strictObject({
  galleryId: id.openapi({
    param: { name: "galleryId", in: "path" },
    description: "The gallery the file belongs to (part of its `storage_path`).",
  }),
  collection: z
    .string()
    .regex(/^[a-z_]{1,40}$/, { message: "is not a collection" })
    .openapi({
      param: { name: "collection", in: "path" },
      example: "artworks",
      description: "What the file is attached to: `artworks` (an image) or `publications` (a cover).",
    }),
  ownerId: id.openapi({
    param: { name: "ownerId", in: "path" },
    description: "The artwork or publication the file belongs to.",
  }),
  file: z
    .string()
    .regex(/^[a-z]{2,6}_[0-9a-z]{10,40}\.(jpg|png|webp|gif)$/, { message: "is not a stored file name" })
    .openapi({
      param: { name: "file", in: "path" },
      example: "img_01jd4xk9v2c7h8m3n5p6q7r8s9.png",
      description: "The stored file: the image's or cover's id and its type's extension.",
    }),
});

const binary = { schema: z.string().openapi({ type: "string", format: "binary" }) };

/**
 * Declared with `createRoute`, not `operation()`: a stored image is public (an `<img src>` sends no credential),
 * and its path, which holds random ids, is what keeps it from being found.
 */
const route = createRoute({
  operationId: "getAsset",
  method: "get",
  path: "/assets/galleries/{galleryId}/{collection}/{ownerId}/{file}",
  tags: ["Uploads"],
  summary: "Serve a stored upload",
  description:
    "The bytes of an uploaded object: the URL is `<PUBLIC_BASE_URL>/v1/assets/` followed by its `storage_path` (artwork images' `url` and an artwork's `thumbnail_url` are such URLs). No credential: the path holds random ids and cannot be guessed. Served with the type it was stored as, `Cache-Control: public, max-age=31536000, immutable` (an object at a path never changes) and `X-Content-Type-Options: nosniff`.",
  security: [],
  request: { params: AssetParams },
  responses: {
    200: {
      description: "The object's bytes.",
      content: Object.fromEntries(imageTypes.map((type) => [type, binary])),
    },
    ...problemResponses,
    ...addressRateLimitedResponses,
    404: {
      description: "No object is stored at this path (`not_found`).",
      content: problemResponses[404].content,
    },
  },
});

export function registerAssetsGet(app: Router): void {
  app.openapi(route, async (c) => {
    const { galleryId, collection, ownerId, file } = c.req.valid("param");
    const object = await c.env.UPLOADS.get(`galleries/${galleryId}/${collection}/${ownerId}/${file}`);
    if (!object) throw new ApiError("not_found", "No object is stored at this path.");
    const headers = new Headers({ ETag: object.httpEtag });
    // The type stored is the one the upload verified; the cache policy is this route's own, whatever was stored.
    object.writeHttpMetadata(headers);
    headers.set("Cache-Control", ASSET_CACHE_CONTROL);
    headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
    return new Response(object.body, { headers });
  });
}
