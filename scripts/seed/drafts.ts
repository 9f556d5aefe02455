/**
 * Pending drafts over published works: field edits in `artwork_drafts.patch` (credited artists and dimensions
 * included, in the shape a write takes them) and format changes pending on the format rows (`pending` values,
 * `pending_action` create/delete). Every work with a pending change has its draft row and `save_state = draft`.
 */
import * as schema from "../../db/schema";
import { BASE, HOUR, iso, round1 } from "./common";
import type { Art, Artist, Insert, SeedContext } from "./context";

/** Works whose pending changes include their formats; the others' drafts edit fields only. */
const FORMAT_DRAFTS = 12;
const FIELD_DRAFTS = 24;

type Patch = Record<string, unknown>;
type FormatRow = Insert<typeof schema.artworkFormats>;

interface PatchKind {
  /** Edits an inheritable field: not offered to an edition that shows its parent's values. */
  inheritable: boolean;
  applies: (art: Art) => boolean;
  build: (ctx: SeedContext, art: Art, artists: Artist[]) => Patch;
}

const roundPrice = (cents: number) => Math.max(10_000, Math.round(cents / 10_000) * 10_000);

const PATCH_KINDS: readonly PatchKind[] = [
  {
    inheritable: true,
    applies: () => true,
    build: (_, art) => ({
      title: `${art.title} (revised)`,
      price_cents: art.price === null ? 450_000 : roundPrice(art.price * 1.1),
    }),
  },
  {
    inheritable: true,
    applies: () => true,
    build: () => ({ description: "Revised catalogue note awaiting review by the director." }),
  },
  {
    inheritable: false,
    applies: (art) => art.availability === "available",
    build: (_, art) => ({
      availability_state: "on_hold",
      price_cents: art.price === null ? 1_250_000 : roundPrice(art.price * 0.95),
    }),
  },
  {
    inheritable: false,
    applies: () => true,
    build: () => ({
      condition_status: "good",
      condition_notes: "Frame re-gilded at the lower edge in December; awaiting the conservator's sign-off.",
    }),
  },
  {
    inheritable: true,
    applies: (art) => art.artist.practice !== "antiquity",
    build: (ctx, art, artists) => {
      const primary = art.credits[0]!;
      if (art.credits.length > 1) return { artists: [{ artist_id: primary.artistId, role: "primary" }] };
      const other = ctx.rng.pick(
        artists.filter((a) => a.practice !== "antiquity" && a.id !== primary.artistId),
      );
      return {
        artists: [
          { artist_id: primary.artistId, role: "primary" },
          { artist_id: other.id, role: "collaborator" },
        ],
      };
    },
  },
  {
    // The dimensions are measured again after reframing: the overall size stays, the framed one is new.
    inheritable: true,
    applies: (art) => art.row.heightCm != null && art.row.widthCm != null,
    build: (ctx, art) => {
      const h = art.row.heightCm!;
      const w = art.row.widthCm!;
      const pad = round1(8 + ctx.rng.next() * 6);
      return {
        dimensions: [
          {
            component: "overall",
            label: "Overall",
            height_cm: h,
            width_cm: w,
            depth_cm: art.row.depthCm ?? null,
            note: null,
          },
          {
            component: "framed",
            label: "Framed",
            height_cm: round1(h + pad),
            width_cm: round1(w + pad),
            depth_cm: 5.5,
            note: "New frame by Bowery Frames, measured on delivery",
          },
        ],
      };
    },
  },
  {
    inheritable: true,
    applies: () => true,
    build: (_, art) => ({ title: `${art.title}, second state` }),
  },
];

/** Drafts over published works: some with format changes, the others with field edits. */
export function seedDrafts(ctx: SeedContext, arts: Art[], artists: Artist[]): void {
  const { rng, G, rows, editorId } = ctx;
  const formatsByWork = new Map<string, FormatRow[]>();
  for (const f of rows(schema.artworkFormats)) {
    const list = formatsByWork.get(f.artworkId) ?? [];
    list.push(f);
    formatsByWork.set(f.artworkId, list);
  }
  const published = arts.filter((a) => a.published);
  const formatWorks = rng.sample(
    published.filter((a) => formatsByWork.has(a.id)),
    FORMAT_DRAFTS,
  );
  const fieldWorks = rng.sample(
    published.filter((a) => !formatWorks.includes(a)),
    FIELD_DRAFTS,
  );

  const draft = (art: Art, patch: Patch, editedMs: number) => {
    art.updatedMs = editedMs;
    art.row.saveState = "draft";
    rows(schema.artworkDrafts).push({
      artworkId: art.id,
      ...G,
      patch,
      editedBy: editorId,
      createdAt: iso(editedMs),
      updatedAt: iso(editedMs),
    });
  };
  const patchFor = (art: Art): Patch => {
    const inherits = art.row.parentArtworkId != null;
    const kinds = PATCH_KINDS.filter((k) => (!inherits || !k.inheritable) && k.applies(art));
    return rng.pick(kinds).build(ctx, art, artists);
  };

  for (const art of formatWorks) {
    const editedMs = rng.between(art.updatedMs, BASE - HOUR);
    pendFormats(ctx, art, formatsByWork.get(art.id)!, editedMs);
    draft(art, rng.chance(0.5) ? patchFor(art) : {}, editedMs);
  }
  for (const art of fieldWorks) draft(art, patchFor(art), rng.between(art.updatedMs, BASE - HOUR));
}

/** One to three pending changes to a work's formats: new values, a removal, or a format added in the draft. */
function pendFormats(ctx: SeedContext, art: Art, formats: FormatRow[], editedMs: number): void {
  const { rng, newId, rows } = ctx;
  const at = iso(editedMs);
  const changes = rng.sample(["update", "update", "delete", "create"] as const, rng.int(1, 3));
  const existing = rng.sample(formats, formats.length);
  for (const change of changes) {
    if (change === "create") {
      const model = formats[formats.length - 1]!;
      rows(schema.artworkFormats).push({
        ...model,
        id: newId("fmt", editedMs),
        label: `${model.label}, signed and framed`,
        priceCents: model.priceCents == null ? null : roundPrice(model.priceCents * 1.8),
        stockQuantity: 2,
        availabilityState: "available",
        position: formats.length,
        metadata: { ...model.metadata, framing: "framed" },
        pending: null,
        pendingAction: "create",
        createdAt: at,
        updatedAt: at,
      });
      continue;
    }
    const format = existing.pop();
    if (!format) continue;
    format.updatedAt = at;
    if (change === "delete") format.pendingAction = "delete";
    else {
      format.pending = {
        price_cents: roundPrice((format.priceCents ?? art.price ?? 500_000) * 1.15),
        stock_quantity: rng.int(1, 8),
        availability_state: "available",
      };
    }
  }
}
