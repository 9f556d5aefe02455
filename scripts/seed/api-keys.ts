/** The demo API keys. Their secrets are truly random (only hashes are stored), so they are minted last. */
import type pg from "pg";
import { allScopes, PUBLISHABLE_SCOPES, readScopes } from "../../lib/scopes";
import { insertApiKey } from "../local-keys";
import { BASE, iso } from "./common";

export interface DemoKeys {
  secretKey: string;
  readOnlyKey: string;
  publishableToken: string;
}

export async function seedApiKeys(client: pg.ClientBase, galleryId: string): Promise<DemoKeys> {
  const createdAt = iso(BASE);
  const secret = await insertApiKey(client, {
    galleryId,
    kind: "secret",
    name: "Demo secret key (all scopes)",
    scopes: allScopes,
    createdAt,
  });
  const readOnly = await insertApiKey(client, {
    galleryId,
    kind: "secret",
    name: "Demo read-only key",
    scopes: readScopes,
    createdAt,
  });
  const publishable = await insertApiKey(client, {
    galleryId,
    kind: "publishable",
    name: "Demo publishable token",
    scopes: PUBLISHABLE_SCOPES,
    createdAt,
  });
  return { secretKey: secret.token, readOnlyKey: readOnly.token, publishableToken: publishable.token };
}
