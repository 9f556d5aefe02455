import { describe, expect, it } from "vitest";
import { Artwork } from "../../lib/schemas/artworks";
import { call, createGallery, readJson } from "../helpers/gallery";
import {
  componentValidator,
  documentedOperations,
  openApiDocument,
  validateResponse,
} from "../helpers/openapi";

/** The response validation that `call()` applies to every test is itself tested here. */

const PROBLEM_STATUSES = ["400", "401", "403", "404", "409", "500", "503"];

function problem(status: number, overrides: Record<string, unknown> = {}) {
  return {
    type: "https://api.test/v1/errors/not_found",
    title: "Not found",
    status,
    detail: "No such resource exists in the caller's gallery.",
    code: "not_found",
    retry: "permanent",
    details: null,
    instance: "/v1/gallery/artworks/art_0000000000",
    request_id: "req_0000000000",
    ...overrides,
  };
}

function jsonResponse(status: number, body: unknown, type = "application/json") {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
}

/** The operations whose success is not JSON, and the one media type each documents. */
const NON_JSON_SUCCESS: Record<string, string> = {
  verifyWhatsAppWebhook: "text/plain",
  receiveTwilioMessage: "text/xml",
  downloadInboxAttachment: "*/*",
};

describe("OpenAPI response validation", () => {
  it("accepts a real artwork and rejects one with a field of the wrong type or missing", async () => {
    const g = await createGallery();
    const created = await call("POST", "/gallery/artworks", { key: g.key, body: { title: "Valid" } });
    expect(created.status).toBe(201);
    const artwork = await readJson(Artwork, created);
    const validator = await componentValidator("Artwork");
    expect(validator.validate(artwork).valid).toBe(true);

    expect(validator.validate({ ...artwork, title: 42 }).valid).toBe(false);
    const { title: _title, ...withoutTitle } = artwork;
    expect(validator.validate(withoutTitle).valid).toBe(false);
    expect(validator.validate({ ...artwork, created_at: "yesterday" }).valid).toBe(false);
    // A field the document does not describe is a drift too.
    expect(validator.validate({ ...artwork, undocumented: 1 }).valid).toBe(false);

    const wrong = jsonResponse(200, { ...artwork, title: 42 });
    await expect(validateResponse("GET", `/gallery/artworks/${artwork.id}`, wrong)).rejects.toThrow(
      /GET \/gallery\/artworks\/art_\w+ → 200: the body does not match its schema:[\s\S]*\/title/,
    );
  });

  it("fails an undocumented status", async () => {
    await expect(
      validateResponse(
        "GET",
        "/gallery/artworks",
        jsonResponse(418, problem(418), "application/problem+json"),
      ),
    ).rejects.toThrow(/GET \/gallery\/artworks → 418: status 418 is not documented for listArtworks/);
    await expect(
      validateResponse("GET", "/gallery/artworks/art_0000000000", jsonResponse(201, {})),
    ).rejects.toThrow(/status 201 is not documented for getArtwork/);
  });

  it("fails an undocumented content type and a problem with a missing field", async () => {
    await expect(
      validateResponse("GET", "/gallery/artworks/art_0000000000", jsonResponse(404, problem(404))),
    ).rejects.toThrow(/content type "application\/json" is not documented/);
    const { request_id: _id, ...incomplete } = problem(404);
    await expect(
      validateResponse(
        "GET",
        "/gallery/artworks/art_0000000000",
        jsonResponse(404, incomplete, "application/problem+json"),
      ),
    ).rejects.toThrow(/request_id/);
    await validateResponse(
      "GET",
      "/gallery/artworks/art_0000000000",
      jsonResponse(404, problem(404), "application/problem+json"),
    );
  });

  it("skips paths outside the document and leaves the response readable", async () => {
    const response = jsonResponse(200, { anything: true });
    await validateResponse("GET", "/openapi.json", response);
    await validateResponse("GET", "/no/such/path", jsonResponse(200, "x", "text/plain"));
    expect(await response.json()).toEqual({ anything: true });
  });

  it("documents seven problem responses (503 among them) and a success response for every operation", async () => {
    const doc = await openApiDocument();
    const operations = documentedOperations(doc);
    expect(operations.length).toBeGreaterThan(20);
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path}`;
      for (const status of PROBLEM_STATUSES) {
        const response = operation.responses[status];
        expect(response, `${where} ${status}`).toBeDefined();
        expect(Object.keys(response!.content ?? {}), `${where} ${status}`).toEqual([
          "application/problem+json",
        ]);
        expect(response!.content!["application/problem+json"]!.schema).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
      const successes = Object.keys(operation.responses).filter((s) => /^2\d\d$/.test(s));
      // One success, or a create that can find its resource already stored (201 made, 200 found), both the same
      // schema: an ingest that deduplicates on the provider's id.
      expect(successes.length === 1 || String(successes) === "200,201", `${where}: ${successes}`).toBe(true);
      if (successes.length === 2) {
        expect(operation.responses["200"]!.content, where).toEqual(operation.responses["201"]!.content);
      }
      const success = operation.responses[successes.at(-1)!]!;
      if (path.startsWith("/assets/")) {
        // A stored upload is served as the image it is.
        expect(Object.keys(success.content ?? {}), where).toEqual([
          "image/jpeg",
          "image/png",
          "image/webp",
          "image/gif",
        ]);
        continue;
      }
      // What a provider or a download expects back rather than JSON: the handshake's echo, TwiML, the file itself.
      const other = NON_JSON_SUCCESS[operation.operationId ?? ""];
      if (other) {
        expect(Object.keys(success.content ?? {}), where).toEqual([other]);
        continue;
      }
      expect(Object.keys(success.content ?? {}), where).toEqual(["application/json"]);
      expect(success.content!["application/json"]!.schema, where).toBeDefined();
      if (operation.requestBody) {
        for (const status of ["413", "415"]) {
          expect(operation.responses[status], `${where} ${status}`).toBeDefined();
        }
      }
    }
  });
});
