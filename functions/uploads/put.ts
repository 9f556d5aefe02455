import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { imageTypes } from "../../lib/image-type";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "../../lib/problem";
import { StoredUpload, UploadTokenParams } from "../../lib/schemas/uploads";
import { receiveUpload } from "../../services/uploads/receive";

const problem = { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } };
const imageBody = Object.fromEntries(
  imageTypes.map((type) => [type, { schema: z.string().openapi({ type: "string", format: "binary" }) }]),
);

const route = operation({
  operationId: "putUpload",
  method: "put",
  path: "/uploads/{token}",
  tags: ["Uploads"],
  summary: "Upload the bytes of a signed upload target",
  description:
    "The `signed_url` of an upload target (minted by, for example, POST /gallery/artworks/{id}/images/uploads). The token in the path is the only credential: send no key or session. It works once, for 15 minutes: the body is the file itself, with `Content-Type` exactly the minted `content_type` and at most `max_bytes` bytes, and its bytes must really be that image type. The object is then stored at the minted `storage_path` and served publicly at the returned `url`; attach it to its resource next. Not idempotent by key: the token itself is spent by the first PUT that stores the bytes, and a retry of a PUT that succeeded answers 410 `upload_token_used` (attach the `storage_path`: it is stored). A PUT that fails for any other reason (415, 413, 503) leaves the URL usable. Not CORS-enabled.",
  auth: { scopes: [], credentials: ["upload_token"] },
  pathIds: { token: "gupl" },
  request: { params: UploadTokenParams, body: { required: true, content: imageBody } },
  responses: {
    201: {
      description: "The bytes are stored.",
      content: { "application/json": { schema: StoredUpload } },
    },
    413: {
      description: "The body is larger than the target's `max_bytes` (`payload_too_large`).",
      content: problem,
    },
    415: {
      description:
        "`Content-Type` is not the minted `content_type`, or the bytes are not that image type (`unsupported_media_type`).",
      content: problem,
    },
    503: {
      description:
        "Storage refused the bytes (`service_unavailable`); the URL was not spent: retry after `Retry-After`.",
      content: problem,
    },
  },
});

export function registerUploadsPut(app: Router): void {
  app.openapi(route, async (c) => {
    const stored = await receiveUpload(serviceContext(c), c.req.raw);
    c.header("Cache-Control", "no-store");
    return c.json(stored, 201);
  });
}
