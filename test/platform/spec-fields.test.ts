import { beforeAll, describe, expect, it } from "vitest";
import {
  documentedOperations,
  type JsonSchema,
  type OpenApiDocument,
  openApiDocument,
} from "../helpers/openapi";
import { type SpecObject, type SpecResourceName, specResources } from "./spec-resources";

/**
 * "Only the fields listed are exposed for each resource": every spec resource's response schema in the served
 * OpenAPI document has exactly the spec's fields (nested objects too), the operations the spec names answer with
 * that schema, and the events about the resource carry it as `data.object`. Responses are validated against the
 * document in every suite (additional properties refused), so a body cannot carry a field its schema lacks.
 */

interface Returned {
  method: string;
  path: string;
  /** Where the resource sits in the 2xx JSON body: the body itself or each element of `data`. */
  at: "body" | "data[]";
}

interface Served {
  /** Its component in the document; null while the API serves no operation of the resource yet. */
  component: string | null;
  /** The operations the spec names (and, where it names none, the project's) that answer with the resource. */
  returnedBy: readonly Returned[];
  /** `resource_type` of the domain events about the resource: their `data.object` is (or holds) it. */
  eventResourceType?: string;
  /** Why the events about the resource carry, on purpose, an object that is not the resource. */
  eventObjectException?: string;
}

const served: Record<SpecResourceName, Served> = {
  Artwork: {
    component: "Artwork",
    returnedBy: [
      { method: "GET", path: "/gallery/artworks", at: "data[]" },
      { method: "GET", path: "/gallery/artworks/{id}", at: "body" },
    ],
    eventResourceType: "artwork",
  },
  "Artwork format": {
    component: "ArtworkFormat",
    returnedBy: [{ method: "GET", path: "/gallery/artworks/{id}/formats", at: "data[]" }],
    eventResourceType: "artwork_format",
  },
  "Artwork auction record": {
    component: "AuctionRecord",
    returnedBy: [{ method: "POST", path: "/gallery/artworks/{id}/auction-records", at: "body" }],
    eventResourceType: "auction_record",
  },
  "Artwork activity event": {
    component: "ArtworkActivityEvent",
    returnedBy: [{ method: "GET", path: "/gallery/artworks/{id}/events", at: "data[]" }],
    eventResourceType: "artwork_activity_event",
  },
  Contact: {
    component: "Contact",
    returnedBy: [
      { method: "GET", path: "/gallery/contacts", at: "data[]" },
      { method: "GET", path: "/gallery/contacts/{id}", at: "body" },
      { method: "POST", path: "/gallery/contacts", at: "body" },
      { method: "PATCH", path: "/gallery/contacts/{id}", at: "body" },
    ],
    eventResourceType: "contact",
  },
  "Contact list": {
    component: "ContactList",
    returnedBy: [
      { method: "GET", path: "/gallery/contact-lists", at: "data[]" },
      { method: "GET", path: "/gallery/contact-lists/{id}", at: "body" },
      { method: "PATCH", path: "/gallery/contact-lists/{id}", at: "body" },
    ],
    eventResourceType: "contact_list",
  },
  "Contact recap": {
    component: "ContactRecap",
    returnedBy: [{ method: "GET", path: "/gallery/contacts/{id}/recap", at: "body" }],
  },
  "Inbox thread": {
    component: "InboxThread",
    returnedBy: [
      { method: "GET", path: "/gallery/inbox/threads", at: "data[]" },
      { method: "POST", path: "/gallery/inbox/threads/{id}/read", at: "body" },
    ],
    eventResourceType: "inbox_thread",
    eventObjectException:
      "The inbox is member-private and events are read by keys and delivered to webhook endpoints: thread events carry a content-free reference (InboxThreadEventObject: no subject, sender or snippet); see docs/decisions.md (The inbox).",
  },
  Invoice: {
    component: "Invoice",
    returnedBy: [{ method: "PATCH", path: "/gallery/invoices/{id}", at: "body" }],
    eventResourceType: "invoice",
  },
  "Fair-submission run": {
    component: "FairRun",
    returnedBy: [{ method: "PATCH", path: "/gallery/fair-runs/{id}", at: "body" }],
    eventResourceType: "fair_run",
  },
  "Recommendation match": {
    component: "Match",
    returnedBy: [
      { method: "GET", path: "/gallery/contacts/{id}/matches", at: "data[]" },
      { method: "POST", path: "/gallery/contacts/{id}/matches/{matchId}/feedback", at: "body" },
    ],
    eventResourceType: "match",
  },
  "Offer item": {
    component: "OfferItem",
    returnedBy: [{ method: "PATCH", path: "/gallery/offers/{id}/items", at: "data[]" }],
  },
  "Recommended recipient": {
    component: "RecommendedRecipient",
    returnedBy: [{ method: "GET", path: "/gallery/offers/{id}/recommended-recipients", at: "data[]" }],
  },
  "Show tag": {
    component: "ShowTag",
    returnedBy: [{ method: "GET", path: "/gallery/shows/{showId}/tags", at: "data[]" }],
    eventResourceType: "show_tag",
  },
  "Signed upload target": {
    component: "SignedUploadTarget",
    returnedBy: [{ method: "POST", path: "/gallery/publications/{id}/cover-upload", at: "body" }],
  },
  "Delete result": {
    component: "DeleteResult",
    returnedBy: [
      { method: "DELETE", path: "/gallery/artworks/{id}/auction-records/{recordId}", at: "body" },
      { method: "DELETE", path: "/gallery/offers/{id}", at: "body" },
    ],
  },
  "Dry-run result": {
    component: "DeleteOfferDryRunResult",
    returnedBy: [{ method: "DELETE", path: "/gallery/offers/{id}", at: "body" }],
  },
  "Domain event": {
    component: "DomainEvent",
    returnedBy: [{ method: "GET", path: "/gallery/events", at: "data[]" }],
  },
  Problem: { component: "Problem", returnedBy: [] },
};

type Document = OpenApiDocument & { webhooks?: Record<string, unknown> };
type Schemas = OpenApiDocument["components"]["schemas"];

const refName = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;

/** The schema without its nullability: the non-null alternative of an anyOf/oneOf, if only one. */
function nonNull(schema: JsonSchema): JsonSchema {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!alternatives) return schema;
  const rest = alternatives.filter((s) => s.type !== "null");
  return rest.length === 1 ? nonNull(rest[0]!) : schema;
}

function resolve(schemas: Schemas, schema: JsonSchema): JsonSchema {
  const name = refName(schema);
  return name ? resolve(schemas, schemas[name]!) : schema;
}

/** The object schema a nested field holds: through nullability, `$ref`s and one level of array. */
function objectOf(schemas: Schemas, schema: JsonSchema): JsonSchema {
  const s = resolve(schemas, nonNull(schema));
  if (s.type === "array" || (Array.isArray(s.type) && s.type.includes("array"))) {
    return resolve(schemas, nonNull(s.items as JsonSchema));
  }
  return s;
}

/** Every difference between an object schema and the spec's description of it, each naming its path. */
function differences(schemas: Schemas, schema: JsonSchema, spec: SpecObject, path: string): string[] {
  const object = resolve(schemas, nonNull(schema));
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const actual = Object.keys(properties);
  const expected = [...spec.fields, ...Object.keys(spec.additions ?? {})];
  const out = [
    ...expected.filter((f) => !actual.includes(f)).map((f) => `${path}: missing ${f}`),
    ...actual.filter((f) => !expected.includes(f)).map((f) => `${path}: not in the spec: ${f}`),
  ];
  for (const [field, nested] of Object.entries(spec.nested ?? {})) {
    const property = properties[field];
    if (!property) continue;
    const nestedSpec =
      typeof nested === "string" ? (specResources as Record<string, SpecObject>)[nested] : nested;
    if (!nestedSpec) {
      out.push(`${path}.${field}: names no spec resource (${String(nested)})`);
      continue;
    }
    out.push(...differences(schemas, objectOf(schemas, property), nestedSpec, `${path}.${field}`));
  }
  return out;
}

/** The component names a schema reaches through `$ref`s, itself included when it is one. */
function reachable(schemas: Schemas, schema: unknown, seen = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const s of schema) reachable(schemas, s, seen);
  } else if (schema && typeof schema === "object") {
    const name = refName(schema as JsonSchema);
    if (name) {
      if (!seen.has(name)) {
        seen.add(name);
        reachable(schemas, schemas[name], seen);
      }
    } else {
      for (const value of Object.values(schema)) reachable(schemas, value, seen);
    }
  }
  return seen;
}

function successSchemas(doc: OpenApiDocument, method: string, path: string): JsonSchema[] {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) return [];
  return Object.entries(operation.responses)
    .filter(([status]) => status.startsWith("2"))
    .flatMap(([, r]) => Object.values(r.content ?? {}).flatMap((m) => (m.schema ? [m.schema] : [])));
}

/** The schemas at `at` of a body schema, one per alternative of an anyOf. */
function schemasAt(schemas: Schemas, body: JsonSchema, at: Returned["at"]): JsonSchema[] {
  const alternatives = ((body.anyOf ?? body.oneOf) as JsonSchema[] | undefined) ?? [body];
  return alternatives.map((alternative) => {
    if (at === "body") return alternative;
    const data = (resolve(schemas, alternative).properties as Record<string, JsonSchema> | undefined)?.data;
    return data ? (resolve(schemas, data).items as JsonSchema) : {};
  });
}

/** The event types whose `resource_type` is `type`, each with its `data.object` schema. */
function eventObjects(doc: Document, type: string): (readonly [string, JsonSchema])[] {
  return Object.entries(doc.webhooks ?? {}).flatMap(([eventType, item]) => {
    const properties = envelope(item).properties as Record<string, JsonSchema>;
    const resourceType = (properties.resource_type!.enum as string[] | undefined)?.[0];
    const data = resolve(doc.components.schemas, properties.data!);
    const object = (data.properties as Record<string, JsonSchema>).object!;
    return resourceType === type ? [[eventType, object] as const] : [];
  });
}

function envelope(item: unknown): JsonSchema {
  const post = (item as { post: { requestBody: { content: Record<string, { schema: JsonSchema }> } } }).post;
  return post.requestBody.content["application/json"]!.schema;
}

const entries = Object.entries(served) as [SpecResourceName, Served][];

describe("spec resources expose exactly the spec's fields", () => {
  let doc: Document;
  let schemas: Schemas;
  beforeAll(async () => {
    doc = await openApiDocument();
    schemas = doc.components.schemas;
  });

  it("maps every spec resource", () => {
    expect(Object.keys(served).sort()).toEqual(Object.keys(specResources).sort());
  });

  describe.each(entries.filter(([, s]) => s.component !== null))("%s", (name, s) => {
    const component = s.component as string;

    it(`is the component ${component} with exactly the spec's fields, nested objects included`, () => {
      expect(schemas[component], `no component ${component}`).toBeDefined();
      expect(differences(schemas, schemas[component]!, specResources[name], name)).toEqual([]);
    });

    it.each(s.returnedBy.map((r) => [`${r.method} ${r.path}`, r] as const))("%s answers with it", (_, r) => {
      const bodies = successSchemas(doc, r.method, r.path);
      expect(bodies.length, `${r.method} ${r.path} is not in the document`).toBeGreaterThan(0);
      const found = bodies.flatMap((b) => schemasAt(schemas, b, r.at)).map(refName);
      expect(found).toContain(component);
    });

    const eventResourceType = s.eventResourceType;
    if (eventResourceType) {
      it(
        s.eventObjectException
          ? "is left out of its events on purpose (recorded with its reason)"
          : "is the data.object (or inside it) of every event about it",
        () => {
          const about = eventObjects(doc, eventResourceType);
          expect(about.length, `no event type has resource_type ${eventResourceType}`).toBeGreaterThan(0);
          for (const [eventType, object] of about) {
            // A recorded exception that no longer holds is stale: the events carry the resource after all.
            expect(reachable(schemas, object).has(component), `${eventType}: data.object`).toBe(
              !s.eventObjectException,
            );
          }
        },
      );
    }
  });

  it("has no operation for a resource the API does not serve yet", () => {
    for (const [name, s] of entries.filter(([, e]) => e.component === null)) {
      for (const r of s.returnedBy) {
        expect(successSchemas(doc, r.method, r.path), `${name}: ${r.method} ${r.path}`).toEqual([]);
      }
    }
  });

  it("is the body of every operation's problem responses", () => {
    const problems = documentedOperations(doc).flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses).flatMap(([status, r]) =>
        Object.entries(r.content ?? {})
          .filter(([type]) => type === "application/problem+json")
          .map(([, m]) => [`${method} ${path} ${status}`, m.schema ? refName(m.schema) : undefined] as const),
      ),
    );
    expect(problems.length).toBeGreaterThan(documentedOperations(doc).length);
    expect(problems.filter(([, ref]) => ref !== "Problem")).toEqual([]);
  });

  it("is the envelope of every delivered event (the document's webhooks)", () => {
    const webhooks = Object.entries(doc.webhooks ?? {});
    expect(webhooks.length).toBeGreaterThan(0);
    for (const [eventType, item] of webhooks) {
      expect(differences(schemas, envelope(item), specResources["Domain event"], eventType)).toEqual([]);
    }
  });

  it("finds a field the spec does not list, a missing one and one in a nested object", () => {
    const contact = structuredClone(schemas.Contact!) as JsonSchema;
    const properties = contact.properties as Record<string, JsonSchema>;
    properties.tag_ids = { type: "array", items: { type: "string" } };
    delete properties.phone;
    const drifted: Schemas = {
      ...schemas,
      Contact: contact,
      CollectorProfile: {
        ...schemas.CollectorProfile!,
        properties: { ...(schemas.CollectorProfile!.properties as object), tier: { type: "string" } },
      },
    };
    expect(differences(drifted, contact, specResources.Contact, "Contact")).toEqual([
      "Contact: missing phone",
      "Contact: not in the spec: tag_ids",
      "Contact.collector_profile: not in the spec: tier",
    ]);
    expect(
      differences(
        schemas,
        schemas.ContactRecap!,
        { ...specResources["Contact recap"], fields: ["name"] },
        "R",
      ),
    ).toContain("R: not in the spec: spend");
  });
});
