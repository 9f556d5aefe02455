import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "../../lib/secret-box";
import { call, createGallery, db } from "../helpers/gallery";
import {
  createArtwork,
  deliveries,
  endpoint,
  newSecret,
  received,
  receiverUrl,
  tick,
  verify,
} from "./delivery-helpers";
import { createdEndpoint, storedSecrets } from "./helpers";

/** Webhook signing secrets are stored sealed (AES-GCM, WEBHOOK_SECRET_KEY) and opened only to sign a delivery. */

const SEALED = /^v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/;

describe("webhook signing secrets at rest", () => {
  it("never stores the whsec_ secret, before or after a rotation", async () => {
    const g = await createGallery();
    const created = await createdEndpoint(g.key);
    const first = await storedSecrets(created.id);
    expect(first.sealed.secret).toMatch(SEALED);
    expect(first.sealed.secret).not.toContain("whsec_");
    expect(first.sealed.secret).not.toContain(created.secret!.slice("whsec_".length));
    expect(first.secret).toBe(created.secret);

    const rotated = (await (
      await call("POST", `/gallery/webhook-endpoints/${created.id}/rotate-secret`, { key: g.key })
    ).json()) as { secret: string };
    const after = await storedSecrets(created.id);
    expect(after.sealed.secret).toMatch(SEALED);
    expect(after.sealed.previous_secret).toBe(first.sealed.secret);
    expect(JSON.stringify(after.sealed)).not.toContain("whsec_");
    expect(after).toMatchObject({ secret: rotated.secret, previous_secret: created.secret });
  });

  it("deliveries from an endpoint created through the API verify with standardwebhooks", async () => {
    const g = await createGallery();
    const path = `/${g.id}/api-created`;
    const created = await createdEndpoint(g.key, { url: `${receiverUrl}${path}` });
    await createArtwork(g, "Sealed");
    expect(await tick(g)).toMatchObject({ succeeded: 2 });
    const got = await received(path);
    expect(got).toHaveLength(2);
    for (const request of got) verify(request, created.secret!);
  });

  it("a plaintext whsec_ row (written before sealing) still signs", async () => {
    const g = await createGallery();
    const ep = await endpoint(g);
    const legacy = newSecret();
    await db().execute(sql`update webhook_endpoints set secret = ${legacy} where id = ${ep.id}`);
    await createArtwork(g, "Legacy");
    expect(await tick(g)).toMatchObject({ succeeded: 1 });
    verify((await received(ep.path))[0]!, legacy);
  });

  it("a sealed secret copied onto another endpoint does not open there: that delivery fails alone", async () => {
    const g = await createGallery();
    const donor = await endpoint(g);
    const thief = await endpoint(g);
    await db().execute(sql`update webhook_endpoints set secret = (select secret from webhook_endpoints
      where id = ${donor.id}) where id = ${thief.id}`);
    await createArtwork(g, "Swapped");
    expect(await tick(g)).toMatchObject({ claimed: 2, succeeded: 1, rescheduled: 1 });
    expect((await deliveries(thief.id))[0]!.last_error).toMatch(/^cannot open the signing secret: /);
  });
});

describe("lib/secret-box key rotation", () => {
  const keyA = env.WEBHOOK_SECRET_KEY;
  const keyB = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

  it("opens values sealed with the previous key; seals only with the current one", async () => {
    const sealedA = await sealSecret({ WEBHOOK_SECRET_KEY: keyA }, "whsec_x", "we_1");
    const rotated = { WEBHOOK_SECRET_KEY: keyB, WEBHOOK_SECRET_KEY_PREVIOUS: keyA };
    expect(await openSecret(rotated, sealedA, "we_1", "whsec_")).toBe("whsec_x");
    const sealedB = await sealSecret(rotated, "whsec_y", "we_1");
    expect(sealedB.split(":")[1]).not.toBe(sealedA.split(":")[1]);
    expect(await openSecret({ WEBHOOK_SECRET_KEY: keyB }, sealedB, "we_1", "whsec_")).toBe("whsec_y");
    await expect(openSecret({ WEBHOOK_SECRET_KEY: keyB }, sealedA, "we_1", "whsec_")).rejects.toThrow(
      /not configured/,
    );
    await expect(openSecret({ WEBHOOK_SECRET_KEY: keyA }, sealedA, "we_2", "whsec_")).rejects.toThrow(
      /does not open/,
    );
  });

  it("refuses a missing key, and a key that is not 32 bytes, naming the setting", async () => {
    await expect(
      sealSecret({ WEBHOOK_SECRET_KEY: undefined as unknown as string }, "whsec_x", "we_1"),
    ).rejects.toThrow(/WEBHOOK_SECRET_KEY is not set/);
    await expect(sealSecret({ WEBHOOK_SECRET_KEY: btoa("short") }, "whsec_x", "we_1")).rejects.toThrow(
      /32 random bytes/,
    );
  });
});
