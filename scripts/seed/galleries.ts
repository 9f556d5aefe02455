/** The demo gallery and its two members (an editor and a viewer, with passwords to sign in with). */
import { pbkdf2Sync, randomBytes } from "node:crypto";
import * as schema from "../../db/schema";
import { DAY, DEFAULT_CURRENCY, HOUR, iso, SPAN_START } from "./common";
import type { GalleryIds, SeedContext } from "./context";

export const DEMO_SLUG = "demo";
export const DEMO_EDITOR = { email: "editor@northlight.example", password: "northlight-editor" } as const;
export const DEMO_VIEWER = { email: "viewer@northlight.example", password: "northlight-viewer" } as const;

const GALLERY_CREATED = SPAN_START - 90 * DAY;

/** The gallery's and its members' ids: the seed's first draws. */
export function mintGalleryIds(newId: (prefix: string, now: number) => string): GalleryIds {
  return {
    galleryId: newId("gal", GALLERY_CREATED),
    editorId: newId("mem", GALLERY_CREATED + HOUR),
    viewerId: newId("mem", GALLERY_CREATED + 2 * HOUR),
  };
}

/** A truly random salt: password hashes (like the API keys) are the only values that differ between runs. */
function hashPassword(password: string): string {
  const iterations = 100_000;
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  return `pbkdf2$sha256$${iterations}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export function seedGallery(ctx: SeedContext): void {
  const { rows, galleryId, editorId, viewerId } = ctx;
  rows(schema.galleries).push({
    id: galleryId,
    name: "Northlight Gallery",
    slug: DEMO_SLUG,
    livemode: false,
    defaultCurrency: DEFAULT_CURRENCY,
    createdAt: iso(GALLERY_CREATED),
    updatedAt: iso(GALLERY_CREATED),
  });
  const members = [
    [editorId, DEMO_EDITOR, "Elena Marsh", "editor", GALLERY_CREATED + HOUR],
    [viewerId, DEMO_VIEWER, "Tom Okafor", "viewer", GALLERY_CREATED + 2 * HOUR],
  ] as const;
  for (const [id, login, name, role, ms] of members) {
    rows(schema.members).push({
      id,
      galleryId,
      email: login.email,
      name,
      role,
      passwordHash: hashPassword(login.password),
      disabledAt: null,
      createdAt: iso(ms),
      updatedAt: iso(ms),
    });
  }
}
