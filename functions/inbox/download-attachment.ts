import { z } from "@hono/zod-openapi";
import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { serviceContext } from "../../http/respond";
import { idString } from "../../lib/params";
import { downloadAttachment } from "../../services/inbox/attachments";
import { MEMBER_PRIVATE } from "../../services/inbox/member";

const AttachmentParams = z.strictObject({
  id: idString("msg").openapi({ param: { name: "id", in: "path" }, description: "The message's id." }),
  attachment_id: idString("att").openapi({
    param: { name: "attachment_id", in: "path" },
    description: "The attachment's id, as the message lists it.",
  }),
});

/** `attachment; filename="…"; filename*=UTF-8''…`: the name as given, quoted safely for every client. */
function contentDisposition(filename: string | null): string {
  if (!filename) return "attachment";
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const route = operation({
  operationId: "downloadInboxAttachment",
  method: "get",
  path: "/gallery/inbox/messages/{id}/attachments/{attachment_id}",
  tags: ["Inbox"],
  summary: "Download an email attachment",
  description:
    "The bytes of a file that came with an email, as stored when the mail arrived: its type as the sender's client declared it, always as a download (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`, a sandboxing Content-Security-Policy), so a file is never rendered by the API's origin. A WhatsApp or SMS media reference stays with its provider and is 404 here, as are another member's message and an unknown one. A secret key is refused with 403.",
  auth: { scopes: ["inbox:read"], credentials: ["session"], credentialsReason: MEMBER_PRIVATE },
  pathIds: { id: "msg", attachment_id: "att" },
  request: { params: AttachmentParams },
  responses: {
    200: {
      description: "The file's bytes, with the type the sender's client declared (`Content-Type`).",
      content: { "*/*": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
});

export function registerInboxAttachmentDownload(app: Router): void {
  app.openapi(route, async (c) => {
    const { id, attachment_id } = c.req.valid("param");
    const file = await downloadAttachment(serviceContext(c), id, attachment_id);
    return c.body(file.body, 200, {
      "content-type": file.contentType,
      "content-length": String(file.size),
      "content-disposition": contentDisposition(file.filename),
      "content-security-policy": "default-src 'none'; sandbox",
    });
  });
}
