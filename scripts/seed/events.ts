/** The outbox: one `artwork.created` domain event per work (no webhook endpoints exist, so no deliveries). */
import * as schema from "../../db/schema";
import { iso } from "./common";
import type { Art, SeedContext } from "./context";

export function seedEvents(ctx: SeedContext, arts: Art[]): void {
  const { newId, G, rows } = ctx;
  for (const art of arts) {
    rows(schema.domainEvents).push({
      id: newId("evt", art.createdMs),
      ...G,
      type: "artwork.created",
      livemode: false,
      resourceType: "artwork",
      resourceId: art.id,
      data: { object: { id: art.id, title: art.title } },
      actorId: null,
      requestId: null,
      createdAt: iso(art.createdMs),
    });
  }
}
