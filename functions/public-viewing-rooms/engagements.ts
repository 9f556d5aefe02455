import type { Router } from "../../http/app";
import { operation } from "../../http/operation";
import { respond, serviceContext } from "../../http/respond";
import {
  PublicEngagementAccepted,
  PublicEngagementCreate,
  PublicRoomSlugParams,
  visitorEngagementKinds,
} from "../../lib/schemas/viewing-rooms";
import { recordVisitorEngagement } from "../../services/public-viewing-rooms/engagements";

const route = operation({
  operationId: "createPublicViewingRoomEngagement",
  method: "post",
  path: "/public/viewing-rooms/{slug}/engagements",
  tags: ["Public viewing rooms"],
  summary: "Record a visitor's engagement in a room",
  description: `Posted from the visitor's browser with the publishable token: \`kind\` (${visitorEngagementKinds.map((k) => `\`${k}\``).join(", ")}), \`artwork_id\` (one of the room's works, else 400 naming it; required for artwork_viewed, favorite_added, favorite_removed and waitlist_joined), \`email\` (the visitor's, when they gave it) and \`occurred_at\` (UTC, now by default, not in the future). The room follows the read's rules: a private, unknown, not yet open or closed room is 404. When the email (trimmed, lower-cased) is that of one of the gallery's unarchived contacts, the engagement is recorded on the contact with the room (\`engagement_event.recorded\`; it shows in GET /gallery/contacts/{id}/engagements); otherwise nothing is stored. The answer is 202 \`{accepted: true}\` either way: it never tells whether an email is a contact's. Authenticated by a publishable token (\`gpub_\`) alone; CORS-open.`,
  auth: { scopes: ["viewing_rooms:read"], credentials: ["publishable"] },
  idempotent: true,
  exampleBody: { kind: "room_opened", email: "visitor@example.com" },
  request: {
    params: PublicRoomSlugParams,
    body: { required: true, content: { "application/json": { schema: PublicEngagementCreate } } },
  },
  responses: {
    202: {
      description: "Accepted (recorded when the visitor is a known contact).",
      content: { "application/json": { schema: PublicEngagementAccepted } },
    },
  },
});

export function registerPublicViewingRoomsEngagements(app: Router): void {
  app.openapi(route, async (c) => {
    const { slug } = c.req.valid("param");
    return respond(c, await recordVisitorEngagement(serviceContext(c), slug, c.req.valid("json")));
  });
}
