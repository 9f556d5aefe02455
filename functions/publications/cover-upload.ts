import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import { PublicationCoverUploadCreate, PublicationIdParams } from "../../lib/schemas/publications";
import { SignedUploadTarget } from "../../lib/schemas/uploads";
import { mintPublicationCoverUpload } from "../../services/publications/cover";

const route = operation({
  operationId: "createPublicationCoverUpload",
  method: "post",
  path: "/gallery/publications/{id}/cover-upload",
  tags: ["Publications"],
  summary: "Mint a signed cover-image upload URL",
  description:
    "Step 1 of setting a cover: returns a one-time `signed_url` (valid 15 minutes) and the `storage_path` the server chose for it, under the gallery's own prefix (`galleries/<gallery>/publications/<publication>/…`). PUT the image's bytes to `signed_url` (step 2: JPEG, PNG, WebP or GIF, exactly the `content_type` minted, at most `size_bytes` or 20 MiB; a second PUT, or one after expiry, is 410), then PATCH /gallery/publications/{id} with `cover_image_path` set to `storage_path` (step 3). Nothing changes on the publication until then.",
  auth: {
    scopes: ["publications:update"],
    credentials: ["session"],
    credentialsReason:
      "Takes a first-party member session only: the cover is uploaded from a browser by a signed-in member, so the upload target is minted for that member; a secret key gets 403.",
  },
  idempotent: true,
  pathIds: { id: "pub" },
  exampleBody: { content_type: "image/png" },
  replayOmits: ["token", "signed_url"],
  request: {
    params: PublicationIdParams,
    body: { required: true, content: { "application/json": { schema: PublicationCoverUploadCreate } } },
  },
  responses: {
    201: {
      description: "The signed upload target, with its token shown once.",
      content: { "application/json": { schema: SignedUploadTarget } },
    },
  },
});

export function registerPublicationsCoverUpload(app: Router): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return respond(c, await mintPublicationCoverUpload(serviceContext(c), id, c.req.valid("json")));
  });
}
