import { z } from "@hono/zod-openapi";
import { emailAddress, idString } from "../params";
import { isStrictUtcTimestamp, TimestampOut, UtcTimestamp } from "../time";
import { described } from "./describe";
import { PastTimestamp } from "./interactions";

/**
 * Viewing rooms: a curated set of the gallery's works shown online between optional open and close times. The
 * gallery manages them under /gallery/viewing-rooms; visitors see the public and unlisted ones that are open
 * through the publishable-token surface under /public/viewing-rooms, with visitor-safe fields only.
 */

/**
 * `public`: listed on the public surface and readable by its slug while open; `unlisted`: readable by its slug
 * while open, never listed; `private`: never served to visitors.
 */
export const roomVisibilities = ["public", "unlisted", "private"] as const;

/** The most works one room shows: its works are one list, in the room and on the public read. */
export const MAX_ROOM_ARTWORKS = 200;
export const MAX_SLUG_LENGTH = 80;

/** Lower-case letters, digits and inner hyphens; starts and ends with a letter or digit. */
export const SLUG_SHAPE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const slug = z
  .string()
  .min(1)
  .max(MAX_SLUG_LENGTH)
  .regex(SLUG_SHAPE, {
    message: "must be lower-case letters, digits and hyphens, starting and ending with a letter or digit",
  })
  .openapi({ example: "spring-paintings-2026" });

export const ViewingRoomArtwork = z
  .object({
    artwork_id: z.string().openapi({ example: "art_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
    position: z.number().int().openapi({ description: "0-based place in the room's order." }),
    show_price: z.boolean().openapi({
      description:
        "Whether the room shows the work's price to visitors; it does so only when the work itself is public-priced (`show_price_publicly`).",
    }),
  })
  .openapi("ViewingRoomArtwork");

/** What each room field means, shared by the room, its create and update bodies and the visitor's read. */
const roomTexts = {
  title: "The room's title, as visitors see it (`Spring paintings 2026`).",
  description: "The room's introduction for visitors; null for none.",
  visibility:
    "Who sees the room: `public` (listed on the public surface and readable by its slug while open), `unlisted` (readable by its slug while open, never listed) or `private` (never shown to visitors).",
} as const;

export const ViewingRoom = z
  .object(
    described(
      {
        id: z.string().openapi({ example: "room_01jd4xk9v2c7h8m3n5p6q7r8s9" }),
        title: z.string(),
        slug: z
          .string()
          .openapi({ description: "The room's address on the public surface; unique per gallery." }),
        description: z.string().nullable(),
        visibility: z.enum(roomVisibilities),
        opens_at: TimestampOut.nullable().openapi({
          description: "When the room opens; null: open from the start.",
        }),
        closes_at: TimestampOut.nullable().openapi({
          description: "When the room closes; null: never closes.",
        }),
        publication_id: z.string().nullable().openapi({
          description:
            "A publication of the gallery the room accompanies (a catalogue, a press release), or null.",
        }),
        artworks: z
          .array(ViewingRoomArtwork)
          .openapi({ description: "The room's works, in position order." }),
        is_open: z.boolean().openapi({
          description: "Computed: now is within [opens_at, closes_at); a null bound is open-ended.",
        }),
        published_at: TimestampOut.nullable().openapi({
          description:
            "When the room was last made visible to visitors (private → public or unlisted); null while private.",
        }),
        created_at: TimestampOut,
        updated_at: TimestampOut,
      },
      roomTexts,
    ),
  )
  .openapi("ViewingRoom");

const RoomArtworkInput = z
  .strictObject({
    artwork_id: idString("art"),
    show_price: z.boolean().optional().openapi({
      description:
        "Show the work's price to visitors (only when the work is public-priced too); false by default.",
    }),
  })
  .openapi("ViewingRoomArtworkInput");

const roomArtworks = z
  .array(RoomArtworkInput)
  .max(MAX_ROOM_ARTWORKS)
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, n) => {
      if (seen.has(item.artwork_id)) {
        ctx.addIssue({ code: "custom", path: [n, "artwork_id"], message: "lists this artwork twice" });
      }
      seen.add(item.artwork_id);
    });
  })
  .openapi({
    description: `0 to ${MAX_ROOM_ARTWORKS} distinct works of this gallery, in the room's order (positions are the array's order); replaces the set.`,
  });

const roomFields = described(
  {
    title: z.string().trim().min(1).max(200),
    slug: slug.openapi({
      description: `1 to ${MAX_SLUG_LENGTH} characters: lower-case letters, digits and inner hyphens. Unique per gallery (409 naming the room that has it).`,
    }),
    description: z.string().max(20_000).nullable(),
    visibility: z.enum(roomVisibilities),
    opens_at: UtcTimestamp.nullable().openapi({
      description: "When the room opens (UTC, ends in Z); null: open from the start.",
    }),
    closes_at: UtcTimestamp.nullable().openapi({
      description: "When the room closes (UTC, ends in Z), after opens_at; null: never closes.",
    }),
    publication_id: idString("pub").nullable().openapi({
      description: "A publication of this gallery the room accompanies, or null.",
    }),
    artworks: roomArtworks,
  },
  roomTexts,
);

/** closes_at after opens_at, when a body gives both. */
function closesAfterOpens(
  body: { opens_at?: string | null | undefined; closes_at?: string | null | undefined },
  ctx: z.RefinementCtx,
): void {
  const { opens_at: opens, closes_at: closes } = body;
  if (!opens || !closes || !isStrictUtcTimestamp(opens) || !isStrictUtcTimestamp(closes)) return;
  if (Date.parse(closes) <= Date.parse(opens)) {
    ctx.addIssue({ code: "custom", path: ["closes_at"], message: "must be after opens_at" });
  }
}

export const ViewingRoomCreate = z
  .strictObject({
    ...roomFields,
    visibility: roomFields.visibility.openapi({
      description: `${roomTexts.visibility} \`private\` when omitted.`,
    }),
  })
  .partial()
  .required({ title: true })
  .superRefine(closesAfterOpens)
  .openapi("ViewingRoomCreate");
export const ViewingRoomUpdate = z
  .strictObject(roomFields)
  .partial()
  .superRefine(closesAfterOpens)
  .openapi("ViewingRoomUpdate");
export type ViewingRoomCreateInput = z.infer<typeof ViewingRoomCreate>;
export type ViewingRoomUpdateInput = z.infer<typeof ViewingRoomUpdate>;

export const ViewingRoomIdParams = z.strictObject({
  id: idString("room").openapi({ param: { name: "id", in: "path" } }),
});

// ---------------------------------------------------------------------------------------------------------
// The public (visitor) surface

/** What a visitor is told of a work's availability, from its `availability_state`. */
export const publicAvailabilities = ["available", "reserved", "sold", "not_for_sale"] as const;

export const PublicArtist = z
  .object({
    name: z.string().openapi({ description: "The artist's name, as credited." }),
    role: z.string().openapi({ description: "primary, collaborator, after, attributed or studio." }),
  })
  .openapi("PublicArtist");

export const PublicImage = z
  .object({
    url: z.string().openapi({ description: "Where the image is served, publicly." }),
    caption: z.string().nullable().openapi({ description: "The image's caption; null for none." }),
    width: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "In pixels, read from the image's header; null when unknown." }),
    height: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "In pixels, read from the image's header; null when unknown." }),
  })
  .openapi("PublicImage");

export const PublicPrice = z
  .object({
    price_cents: z
      .number()
      .int()
      .openapi({ description: "The work's price, in minor units (cents) of `currency`." }),
    currency: z.string().openapi({ description: "The currency of the price (ISO 4217, `USD`)." }),
  })
  .openapi("PublicPrice");

export const PublicArtwork = z
  .object({
    id: z.string().openapi({
      example: "art_01jd4xk9v2c7h8m3n5p6q7r8s9",
      description: "The work's id: what an engagement names as `artwork_id`.",
    }),
    title: z
      .string()
      .openapi({ description: "The work's title, as the gallery shows it (`Untitled (Blue)`)." }),
    artists: z.array(PublicArtist).openapi({ description: "The credited artists, in order." }),
    year: z.number().int().nullable().openapi({
      description: "The year the work was made (its first year when it spans several); null when unknown.",
    }),
    date_display: z
      .string()
      .nullable()
      .openapi({ description: "The date as the gallery writes it (c. 1965)." }),
    medium: z
      .string()
      .nullable()
      .openapi({ description: "Materials and technique (`Oil on canvas`); null when not given." }),
    dimensions_text: z
      .string()
      .nullable()
      .openapi({ description: "The size as a label shows it (`120 × 90 cm`); null when not given." }),
    image_url: z
      .string()
      .nullable()
      .openapi({ description: "The work's first image (its thumbnail), or null." }),
    images: z.array(PublicImage).openapi({ description: "The work's images, in order." }),
    availability: z.enum(publicAvailabilities).openapi({
      description:
        "available; reserved (on hold or reserved); sold; not_for_sale (not for sale, or on loan).",
    }),
    price: PublicPrice.nullable().openapi({
      description:
        "Shown only when the room shows this work's price and the work is public-priced (and priced); else null.",
    }),
    price_on_request: z.boolean().openapi({ description: "True exactly when `price` is null." }),
  })
  .openapi("PublicArtwork");

const publicRoomFields = {
  slug: z.string().openapi({
    example: "spring-paintings-2026",
    description: "The room's address on the public surface: GET /public/viewing-rooms/{slug} reads it.",
  }),
  title: z.string().openapi({ description: roomTexts.title }),
  description: z.string().nullable().openapi({ description: roomTexts.description }),
  opens_at: TimestampOut.nullable().openapi({
    description: "When the room opened (UTC, milliseconds); null: open from the start.",
  }),
  closes_at: TimestampOut.nullable().openapi({ description: "When the room closes; null: it does not." }),
  artwork_count: z.number().int().openapi({ description: "How many works the room shows." }),
  cover_image_url: z.string().nullable().openapi({
    description: "The first image of the room's first work that has one, or null.",
  }),
};

export const PublicViewingRoomSummary = z.object(publicRoomFields).openapi("PublicViewingRoomSummary");

export const PublicViewingRoom = z
  .object({
    ...publicRoomFields,
    artworks: z.array(PublicArtwork).openapi({ description: "The room's works, in the room's order." }),
  })
  .openapi("PublicViewingRoom");

export const PublicRoomSlugParams = z.strictObject({
  slug: slug.openapi({
    param: { name: "slug", in: "path" },
    description:
      "The room's address in the gallery's public pages (`spring-selection`), as the room's `slug`.",
  }),
});

/**
 * What a visitor's browser may report: the engagement kinds a room's page can observe. The gallery's own
 * channels (email opens, unsubscribes, waitlist notices, checkouts, purchases, drops) are left out, so a
 * visitor cannot write them into the gallery's CRM.
 */
export const visitorEngagementKinds = [
  "room_opened",
  "artwork_viewed",
  "inquiry_submitted",
  "favorite_added",
  "favorite_removed",
  "waitlist_joined",
  "link_clicked",
] as const;

/** Kinds that are about one work: they name it. */
export const artworkEngagementKinds: readonly string[] = [
  "artwork_viewed",
  "favorite_added",
  "favorite_removed",
  "waitlist_joined",
];

export const PublicEngagementCreate = z
  .strictObject({
    kind: z.enum(visitorEngagementKinds).openapi({
      description:
        "What the visitor did: opened the room, viewed a work, submitted an inquiry, added or removed a favourite, joined a work's waitlist, or clicked a link.",
    }),
    artwork_id: idString("art").optional().openapi({
      description:
        "The work engaged with: one of the room's works. Required for artwork_viewed, favorite_added, favorite_removed and waitlist_joined.",
    }),
    email: emailAddress()
      .optional()
      .openapi({ description: "The visitor's email, when they gave it; matched trimmed and lower-cased." }),
    occurred_at: PastTimestamp.optional().openapi({
      description:
        "When it happened (UTC, ends in Z); now by default. At most 5 minutes ahead of the server clock.",
    }),
  })
  .superRefine((body, ctx) => {
    if (artworkEngagementKinds.includes(body.kind) && body.artwork_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["artwork_id"], message: `is required for kind ${body.kind}` });
    }
  })
  .openapi("PublicEngagementCreate");
export type PublicEngagementCreateInput = z.infer<typeof PublicEngagementCreate>;

export const PublicEngagementAccepted = z
  .object({
    accepted: z.literal(true).openapi({
      description:
        "Always true, whether or not the visitor's email is a contact's (recorded only when it is): the answer never tells.",
    }),
  })
  .openapi("PublicEngagementAccepted");

/**
 * The slug a room gets from its title when none is given: accents dropped, lower-cased, every run of other
 * characters a hyphen, cut to the length limit; `room` when nothing is left. The write takes the first free
 * variant (`-2`, `-3`, …) of it.
 */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
  return slug || "room";
}
