import { describe, expect, it } from "vitest";
import readme from "../../README.md?raw";
import { openApiDocument } from "../helpers/openapi";

/** `METHOD /v1/path` of every row of the README's "What exists" table. */
function documentedOperations(): string[] {
  const section = readme.split("## What exists")[1]?.split("\n## ")[0] ?? "";
  return [...section.matchAll(/^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \|/gm)].map(
    ([, method, path]) => `${method} ${path}`,
  );
}

describe("README.md", () => {
  it('lists in "What exists" exactly the operations the API serves', async () => {
    const doc = await openApiDocument();
    const served = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ["get", "post", "patch", "put", "delete"].includes(method))
        .map((method) => `${method.toUpperCase()} /v1${path}`),
    );
    // The document itself is served beside the operations it describes.
    served.push("GET /v1/openapi.json");
    // So is the reference page that shows it (functions/docs/).
    served.push("GET /v1/docs");
    // And the MCP endpoint, which serves the same operations as tools (functions/mcp/).
    served.push("POST /v1/mcp");
    expect(documentedOperations().sort()).toEqual(served.sort());
  });

  it("has only ASCII in its shell examples, so each can be copied as is", () => {
    const lines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => block!.split("\n"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => /[^\x20-\x7e]/.test(line))).toEqual([]);
  });
});
