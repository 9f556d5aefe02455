import { beforeAll, describe, expect, it } from "vitest";
import "../../functions/api";
import { eventReadScopes } from "../../functions/events/read-scopes";
import { catalogueTypes, typesMatching } from "../../lib/event-catalogue";
import { readScopes } from "../../lib/scopes";
import { call, createGallery, type TestGallery } from "../helpers/gallery";
import { expectProblem } from "../helpers/problem";
import { BASE, create } from "./helpers";

/**
 * Generated from the event catalogue: subscribing an endpoint to a type, to `<resource>.*` or to `*` takes the
 * read scopes of every type the pattern covers, on create and on update.
 */

const MANAGE = ["webhooks:create", "webhooks:update"];

let g: TestGallery;
const keyWith = (scopes: readonly string[]): Promise<string> => g.keyFor(scopes);

beforeAll(async () => {
  g = await createGallery();
});

const prefixes = [...new Set(catalogueTypes.map((t) => `${t.slice(0, t.indexOf("."))}.*`))];
const patterns = [...catalogueTypes, ...prefixes, "*"];

describe.each(patterns.map((pattern) => [pattern] as const))("subscribing to %s", (pattern) => {
  const needed = () => [...new Set(typesMatching(pattern).flatMap((t) => eventReadScopes()[t]))].sort();
  const lacking = () => keyWith([...MANAGE, ...readScopes.filter((s) => !needed().includes(s))]);
  const holding = () => keyWith([...MANAGE, ...needed()]);
  const body = { url: "https://hooks.example.com/in", event_types: [pattern] };

  it("is 403 naming the missing read scopes without them, 201 with them", async () => {
    expect(needed().length).toBeGreaterThan(0);
    const refused = await expectProblem((await create(await lacking(), body)).response, 403, "forbidden");
    expect(refused.details).toEqual({
      missing_scopes: needed(),
      required_scopes: needed(),
      event_types: [pattern],
    });
    for (const scope of needed()) expect(refused.detail).toContain(scope);
    const made = await create(await holding(), body);
    expect(made.response.status).toBe(201);
    expect(made.body.event_types).toEqual([pattern]);
  });

  it("is 403 on update without them, 200 with them", async () => {
    const other = pattern === "member.*" ? "tag.*" : "member.*";
    const made = await create(g.key, { ...body, event_types: [other] });
    expect(made.response.status).toBe(201);
    const path = `${BASE}/${made.body.id}`;
    const update = { event_types: [pattern] };
    const refused = await expectProblem(
      await call("PATCH", path, { key: await lacking(), body: update }),
      403,
      "forbidden",
    );
    expect(refused.details).toMatchObject({ missing_scopes: needed(), event_types: [pattern] });
    // The refused change left the endpoint as it was.
    const stored = await call("GET", path, { key: g.key });
    expect(((await stored.json()) as { event_types: string[] }).event_types).toEqual([other]);
    const changed = await call("PATCH", path, { key: await holding(), body: update });
    expect(changed.status, await changed.clone().text()).toBe(200);
    // A new URL or re-enabling points the whole subscription: refused without its scopes.
    for (const change of [{ url: "https://hooks.example.com/other" }, { enabled: true }]) {
      await expectProblem(
        await call("PATCH", path, { key: await lacking(), body: change }),
        403,
        "forbidden",
      );
    }
    // What neither points nor widens the deliveries takes no read scope.
    for (const change of [{ description: "Renamed" }, { enabled: false }]) {
      const response = await call("PATCH", path, { key: await lacking(), body: change });
      expect(response.status, await response.clone().text()).toBe(200);
    }
  });
});
