import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { ArtworkImageUploadCreate } from "../../lib/schemas/artwork-images";
import { ArtworkIdParams } from "../../lib/schemas/artworks";
import { SignedUploadTarget } from "../../lib/schemas/uploads";
import { mintArtworkImageUpload } from "../../services/artwork-images/upload";

const route = operation({
  operationId: "createArtworkImageUpload",
  method: "post",
  path: "/gallery/artworks/{id}/images/uploads",
  tags: ["Artwork images"],
  summary: "Mint a signed upload target for a new image",
  description:
    "Step 1 of adding an image: returns a one-time `signed_url` (valid 15 minutes) and the `storage_path` the server chose for it. PUT the file's bytes to `signed_url` (step 2), then attach `storage_path` with POST /gallery/artworks/{id}/images (step 3). Nothing changes on the artwork until then; an upload never attached stays unreachable except by its URL.",
  auth: { scopes: ["artworks:create"] },
  idempotent: true,
  pathIds: { id: "art" },
  exampleBody: { size_bytes: 1000, content_type: "image/png" },
  replayOmits: ["token", "signed_url"],
  request: {
    params: ArtworkIdParams,
    body: { required: true, content: { "application/json": { schema: ArtworkImageUploadCreate } } },
  },
  responses: {
    201: {
      description: "The signed upload target, with its token shown once.",
      content: { "application/json": { schema: SignedUploadTarget } },
    },
  },
});

export function registerArtworkImagesCreateUpload(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await mintArtworkImageUpload(serviceContext(c), id, c.req.valid("json")));
  });
}
