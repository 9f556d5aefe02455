/**
 * The demo's pictures: a deterministic abstract composition for each work, drawn as SVG from the work's own data
 * and encoded to JPEG by sharp (libvips, prebuilt for the platform). The same data always gives the same bytes:
 * the palette and shapes come from a SHA-256 of the work's id, title, artist, medium, year and dimensions, the
 * artist's name alone picks the style (an artist's works look related), the medium the kind of object (a canvas,
 * a sheet with its margin, a photograph, a sculpture on its plinth), and the dimensions the proportions.
 * Text-free, so no font is needed wherever the seed runs.
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import { Rng } from "./random";

/** What a picture is drawn from: the work as its row describes it. */
export interface PictureSubject {
  id: string;
  title: string;
  artist: string;
  medium: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  depthCm: number | null;
}

/** The views a work's images show, after the seed's captions (none: the work itself). */
export type View = "work" | "detail" | "verso" | "installation" | "side";

const VIEW_CAPTIONS: Readonly<Record<string, View>> = {
  Detail: "detail",
  Verso: "verso",
  "Installation view": "installation",
  "Side view": "side",
};

export const viewOfCaption = (caption: string | null): View => (caption && VIEW_CAPTIONS[caption]) || "work";

export interface Picture {
  bytes: Uint8Array;
  contentType: "image/jpeg";
  width: number;
  height: number;
}

/** The long side of every picture, in pixels. */
export const LONG_SIDE = 800;
const JPEG = { quality: 80, chromaSubsampling: "4:2:0" } as const;

// Every sharp call is independent and small: libvips's operation cache would only hold memory.
sharp.cache(false);

type Kind = "painting" | "paper" | "print" | "photograph" | "object";

function kindOf(medium: string | null): Kind {
  const m = (medium ?? "").toLowerCase();
  if (/gelatin|chromogenic|pigment print|platinum|photograph/.test(m)) return "photograph";
  if (/bronze|marble|steel|stoneware|aluminum|terracotta|ceramic/.test(m)) return "object";
  if (/screenprint|lithograph|etching|woodcut/.test(m)) return "print";
  if (/on paper/.test(m)) return "paper";
  return "painting";
}

/** A PRNG seeded from the SHA-256 of `parts`. */
function rngOf(...parts: unknown[]): Rng {
  return new Rng(createHash("sha256").update(JSON.stringify(parts)).digest().readUInt32BE(0));
}

/** Grounds first, then the colours shapes are drawn in. */
const PALETTES: readonly (readonly string[])[] = [
  ["#efe8da", "#c8553d", "#f2a541", "#2d4a63", "#1d1d1f"],
  ["#e9e4d8", "#264653", "#2a9d8f", "#e9c46a", "#e76f51"],
  ["#f4efe6", "#3d405b", "#e07a5f", "#81b29a", "#f2cc8f"],
  ["#1f2430", "#d9a441", "#b5462f", "#e8dcc2", "#5b7f95"],
  ["#ece7df", "#7d5a50", "#b4846c", "#e5b299", "#2e3a3f"],
  ["#dfe6e9", "#0b3954", "#087e8b", "#bfd7ea", "#ff5a5f"],
  ["#f6f1e9", "#283618", "#606c38", "#dda15e", "#bc6c25"],
  ["#2b2d42", "#8d99ae", "#edf2f4", "#ef233c", "#d90429"],
  ["#f1e3d3", "#99582a", "#432818", "#bb9457", "#6f1d1b"],
  ["#e6ecef", "#335c67", "#e09f3e", "#9e2a2b", "#540b0e"],
  ["#efeae4", "#5e548e", "#9f86c0", "#e0b1cb", "#231942"],
  ["#f3ede2", "#1b4965", "#62b6cb", "#cae9ff", "#f28f3b"],
];

const STYLES = ["fields", "geometry", "bands", "cutouts", "lines"] as const;
type Style = (typeof STYLES)[number];

const n = (v: number) => Math.round(v * 10) / 10;

/** The composition's elements on a W × H canvas (its own coordinates). */
interface Composition {
  width: number;
  height: number;
  body: string;
  /** The colour behind it: a canvas's edge, the object's shadow side. */
  ground: string;
}

function canvasSize(subject: PictureSubject): [number, number] {
  const { heightCm: h, widthCm: w } = subject;
  // Undated, unmeasured works are drawn 4:5, the commonest portrait stretcher.
  const ratio = h && w ? Math.min(3, Math.max(1 / 3, w / h)) : 0.8;
  return ratio >= 1 ? [LONG_SIDE, Math.round(LONG_SIDE / ratio)] : [Math.round(LONG_SIDE * ratio), LONG_SIDE];
}

function fields(r: Rng, pal: readonly string[], W: number, H: number): string {
  const count = r.int(2, 3);
  const m = Math.min(W, H) * 0.08;
  const gap = m * 0.6;
  const each = (H - 2 * m - gap * (count - 1)) / count;
  const heights = Array.from({ length: count }, () => each * (0.7 + r.next() * 0.6));
  const scale = (H - 2 * m - gap * (count - 1)) / heights.reduce((a, b) => a + b, 0);
  let y = m;
  let out = "";
  for (const h of heights) {
    const fill = r.pick(pal.slice(1));
    out += `<rect x="${n(m)}" y="${n(y)}" width="${n(W - 2 * m)}" height="${n(h * scale)}" rx="${n(m / 3)}" fill="${fill}" opacity="${n(0.82 + r.next() * 0.15)}"/>`;
    y += h * scale + gap;
  }
  return out;
}

function geometry(r: Rng, pal: readonly string[], W: number, H: number): string {
  const cols = r.int(2, 4);
  const rows = Math.max(2, Math.round((cols * H) / W));
  const cw = W / cols;
  const ch = H / rows;
  let out = "";
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      if (r.chance(0.3)) continue;
      const x = i * cw;
      const y = j * ch;
      const fill = r.pick(pal.slice(1));
      const s = Math.min(cw, ch);
      switch (r.int(0, 3)) {
        case 0:
          out += `<circle cx="${n(x + cw / 2)}" cy="${n(y + ch / 2)}" r="${n(s * (0.3 + r.next() * 0.2))}" fill="${fill}"/>`;
          break;
        case 1:
          out += `<rect x="${n(x + cw * 0.1)}" y="${n(y + ch * 0.1)}" width="${n(cw * 0.8)}" height="${n(ch * 0.8)}" fill="${fill}"/>`;
          break;
        case 2: {
          const rr = s * 0.45;
          const cx = x + cw / 2;
          const cy = y + ch / 2 + rr / 2;
          out += `<path d="M${n(cx - rr)} ${n(cy)} A${n(rr)} ${n(rr)} 0 0 1 ${n(cx + rr)} ${n(cy)} Z" fill="${fill}"/>`;
          break;
        }
        default:
          out += `<path d="M${n(x + cw * 0.1)} ${n(y + ch * 0.9)} L${n(x + cw / 2)} ${n(y + ch * 0.1)} L${n(x + cw * 0.9)} ${n(y + ch * 0.9)} Z" fill="${fill}"/>`;
      }
    }
  }
  return out;
}

function bands(r: Rng, pal: readonly string[], W: number, H: number): string {
  const horizon = H * (0.35 + r.next() * 0.3);
  const sky = r.pick(pal.slice(1));
  let out = `<rect width="${W}" height="${n(horizon)}" fill="${sky}" opacity="0.55"/>`;
  out += `<circle cx="${n(W * (0.2 + r.next() * 0.6))}" cy="${n(horizon * (0.3 + r.next() * 0.4))}" r="${n(Math.min(W, H) * (0.06 + r.next() * 0.1))}" fill="${r.pick(pal.slice(1))}"/>`;
  let y = horizon;
  while (y < H) {
    const h = H * (0.05 + r.next() * 0.15);
    const lift = H * 0.04 * (r.next() - 0.5);
    out += `<path d="M0 ${n(y)} Q${n(W / 2)} ${n(y + lift * 4)} ${W} ${n(y + lift)} L${W} ${H} L0 ${H} Z" fill="${r.pick(pal.slice(1))}"/>`;
    y += h;
  }
  return out;
}

/** A closed, smooth blob around (cx, cy): Catmull-Rom through jittered radii, as cubic Béziers. */
function blob(r: Rng, cx: number, cy: number, radius: number): string {
  const k = r.int(5, 8);
  const points = Array.from({ length: k }, (_, i) => {
    const a = (i / k) * Math.PI * 2;
    const rr = radius * (0.55 + r.next() * 0.6);
    return [cx + Math.cos(a) * rr, cy + Math.sin(a) * rr] as const;
  });
  const p = (i: number) => points[(i + k) % k]!;
  let d = `M${n(p(0)[0])} ${n(p(0)[1])}`;
  for (let i = 0; i < k; i++) {
    const [p0, p1, p2, p3] = [p(i - 1), p(i), p(i + 1), p(i + 2)];
    d += ` C${n(p1[0] + (p2[0] - p0[0]) / 6)} ${n(p1[1] + (p2[1] - p0[1]) / 6)} ${n(p2[0] - (p3[0] - p1[0]) / 6)} ${n(p2[1] - (p3[1] - p1[1]) / 6)} ${n(p2[0])} ${n(p2[1])}`;
  }
  return `${d} Z`;
}

function cutouts(r: Rng, pal: readonly string[], W: number, H: number): string {
  let out = "";
  const count = r.int(4, 7);
  for (let i = 0; i < count; i++) {
    const radius = Math.min(W, H) * (0.1 + r.next() * 0.18);
    out += `<path d="${blob(r, W * (0.15 + r.next() * 0.7), H * (0.15 + r.next() * 0.7), radius)}" fill="${r.pick(pal.slice(1))}"/>`;
  }
  return out;
}

function lines(r: Rng, pal: readonly string[], W: number, H: number): string {
  const ink = r.pick(pal.slice(1));
  const step = Math.min(W, H) / r.int(6, 12);
  let out = `<rect x="${n(W * 0.12)}" y="${n(H * (0.2 + r.next() * 0.4))}" width="${n(W * 0.76)}" height="${n(H * 0.18)}" fill="${r.pick(pal.slice(1))}" opacity="0.7"/>`;
  let d = "";
  for (let y = step; y < H; y += step) d += `M${n(W * 0.06)} ${n(y)}H${n(W * 0.94)}`;
  if (r.chance(0.5)) for (let x = step; x < W; x += step) d += `M${n(x)} ${n(H * 0.06)}V${n(H * 0.94)}`;
  out += `<path d="${d}" stroke="${ink}" stroke-width="${n(Math.max(1, step / 14))}" opacity="0.8" fill="none"/>`;
  return out;
}

const DRAW: Readonly<Record<Style, (r: Rng, pal: readonly string[], W: number, H: number) => string>> = {
  fields,
  geometry,
  bands,
  cutouts,
  lines,
};

const MATERIALS: readonly [RegExp, string, string][] = [
  [/bronze/, "#8a5a2b", "#3b2412"],
  [/marble/, "#f1eee8", "#a9a39a"],
  [/aluminum/, "#d5d8db", "#7b8085"],
  [/terracotta|ceramic/, "#c0683c", "#5e2a14"],
];

/** Where the floor meets the wall in a picture of an object, as a share of its height. */
const OBJECT_FLOOR = 0.8;

/** The wall (a vertical gradient, so rooms of any width join seamlessly) and the floor behind an object. */
const objectRoom = (x: number, W: number, H: number) =>
  `<rect x="${n(x)}" width="${n(W)}" height="${H}" fill="url(#wall)"/><rect x="${n(x)}" y="${n(H * OBJECT_FLOOR)}" width="${n(W)}" height="${n(H * (1 - OBJECT_FLOOR))}" fill="#b7ab98"/>`;

/** A form on a plinth against the gallery wall: stacked volumes shaded by one light from the left. */
function sculpture(subject: PictureSubject, r: Rng, pal: readonly string[], W: number, H: number): string {
  const m = (subject.medium ?? "").toLowerCase();
  const [light, dark] = MATERIALS.find(([re]) => re.test(m))?.slice(1) ?? [r.pick(pal.slice(1)), "#1d1d1f"];
  const floor = H * OBJECT_FLOOR;
  const plinthW = W * 0.46;
  const plinthH = H * 0.16;
  let out = `<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#eeede9"/><stop offset="1" stop-color="#d9d7d1"/></linearGradient>
<radialGradient id="mat" cx="0.35" cy="0.35" r="0.8"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></radialGradient></defs>
${objectRoom(0, W, H)}
<ellipse cx="${n(W / 2 + plinthW * 0.08)}" cy="${n(floor)}" rx="${n(plinthW * 0.62)}" ry="${n(H * 0.02)}" fill="#000" opacity="0.18"/>
<rect x="${n((W - plinthW) / 2)}" y="${n(floor - plinthH)}" width="${n(plinthW)}" height="${n(plinthH)}" fill="#f7f6f3"/>
<rect x="${n((W + plinthW) / 2 - plinthW * 0.12)}" y="${n(floor - plinthH)}" width="${n(plinthW * 0.12)}" height="${n(plinthH)}" fill="#e4e2dd"/>`;
  // Volumes stacked on the plinth, each resting on the one below, filling most of the wall above it.
  let top = floor - plinthH;
  const parts = r.int(1, 3);
  const heights = Array.from({ length: parts }, () => 0.6 + r.next() * 0.4);
  const scale = ((top - H * 0.1) * (0.75 + r.next() * 0.2)) / heights.reduce((a, b) => a + b, 0);
  heights.forEach((weight, i) => {
    const h = weight * scale;
    const w = plinthW * (0.5 + r.next() * 0.4) * (1 - i * 0.2);
    const cx = W / 2 + (r.next() - 0.5) * plinthW * 0.1;
    out += r.chance(0.5)
      ? `<ellipse cx="${n(cx)}" cy="${n(top - h / 2)}" rx="${n(w / 2)}" ry="${n(h / 2)}" fill="url(#mat)"/>`
      : `<rect x="${n(cx - w / 2)}" y="${n(top - h)}" width="${n(w)}" height="${n(h)}" rx="${n(w * (0.1 + r.next() * 0.4))}" fill="url(#mat)"/>`;
    top -= h * 0.97;
  });
  return out;
}

/** The work's own picture, on its own canvas (the view "work"). */
function compose(subject: PictureSubject): Composition {
  const [W, H] = canvasSize(subject);
  const r = rngOf(subject.id, subject.title, subject.artist, subject.medium, subject.year, [
    subject.heightCm,
    subject.widthCm,
    subject.depthCm,
  ]);
  const artist = rngOf(subject.artist);
  const style = artist.pick(STYLES);
  const kind = kindOf(subject.medium);
  let pal = PALETTES[(artist.int(0, PALETTES.length - 1) + r.int(0, 2)) % PALETTES.length]!;
  if (kind === "photograph" && /gelatin|platinum/i.test(subject.medium ?? "")) {
    const warm = /platinum/i.test(subject.medium ?? "");
    pal = [0.92, 0.18, 0.4, 0.62, 0.78].map((l) => {
      const v = Math.round(l * 255);
      return warm ? `rgb(${v},${Math.round(v * 0.93)},${Math.round(v * 0.84)})` : `rgb(${v},${v},${v})`;
    });
  }
  if (kind === "print") pal = [pal[0]!, ...r.sample(pal.slice(1), 2)];
  if (kind === "object")
    return { width: W, height: H, body: sculpture(subject, r, pal, W, H), ground: "#d9d7d1" };

  const drawn = DRAW[kind === "photograph" ? "bands" : style](r, pal, W, H);
  const ground = pal[0]!;
  if (kind === "paper" || kind === "print") {
    // A sheet: the image inside its margin of paper, watercolour and gouache a little transparent.
    const m = Math.min(W, H) * 0.09;
    const wash = kind === "paper" ? ' opacity="0.85"' : "";
    return {
      width: W,
      height: H,
      ground: "#f4f0e6",
      body: `<rect width="${W}" height="${H}" fill="#f4f0e6"/><svg x="${n(m)}" y="${n(m)}" width="${n(W - 2 * m)}" height="${n(H - 2 * m)}" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none"><rect width="${W}" height="${H}" fill="${ground}"${wash}/><g${wash}>${drawn}</g></svg>`,
    };
  }
  return { width: W, height: H, ground, body: `<rect width="${W}" height="${H}" fill="${ground}"/>${drawn}` };
}

const svg = (W: number, H: number, body: string, viewBox = `0 0 ${W} ${H}`) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="${viewBox}">${body}</svg>`;

const nested = (c: Composition, x: number, y: number, w: number, h: number) =>
  `<svg x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${c.width} ${c.height}" preserveAspectRatio="none">${c.body}</svg>`;

const WALL = `<defs><linearGradient id="room" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f3f2ee"/><stop offset="1" stop-color="#e2e0da"/></linearGradient></defs>`;

/**
 * The work on a gallery wall at its real size against 2.4 m of wall, so small works look small; an object, the
 * same room seen from further back.
 */
function installation(subject: PictureSubject, c: Composition, r: Rng): string {
  const W = LONG_SIDE;
  const H = Math.round(LONG_SIDE / 1.5);
  if (kindOf(subject.medium) === "object") {
    const wide = c.height * (1.5 + r.next() * 0.4);
    const extra = Math.max(0, (wide - c.width) / 2);
    return svg(
      W,
      Math.round((W * c.height) / (c.width + 2 * extra)),
      `${objectRoom(-extra, c.width + 2 * extra, c.height)}${c.body}`,
      `${n(-extra)} 0 ${n(c.width + 2 * extra)} ${c.height}`,
    );
  }
  const floor = H * 0.84;
  const perCm = floor / 240;
  const fit = Math.min(1, (W * 0.8) / c.width, (floor * 0.8) / c.height);
  const w = subject.widthCm && subject.heightCm ? subject.widthCm * perCm : c.width * fit * 0.5;
  const h = subject.widthCm && subject.heightCm ? subject.heightCm * perCm : c.height * fit * 0.5;
  const scale = Math.min(1, (W * 0.8) / w, (floor * 0.8) / h);
  const [ww, hh] = [w * scale, h * scale];
  const x = (W - ww) * (0.3 + r.next() * 0.4);
  const y = floor * 0.45 - hh / 2;
  return svg(
    W,
    H,
    `${WALL}<rect width="${W}" height="${H}" fill="url(#room)"/><rect y="${n(floor)}" width="${W}" height="${n(H - floor)}" fill="#a89276"/>
<rect x="${n(x + 4)}" y="${n(y + 5)}" width="${n(ww)}" height="${n(hh)}" fill="#000" opacity="0.14"/>${nested(c, x, y, ww, hh)}`,
  );
}

/** The work seen from one side, its edge showing; an object turned a quarter, its depth now across. */
function side(subject: PictureSubject, c: Composition, r: Rng): string {
  if (kindOf(subject.medium) === "object") {
    const { width: W, height: H } = c;
    const depth = subject.depthCm && subject.widthCm ? Math.min(1.5, subject.depthCm / subject.widthCm) : 0.7;
    // From its left or its right: mirrored.
    const turn = r.chance(0.5) ? depth : -depth;
    return svg(
      W,
      H,
      `${objectRoom(0, W, H)}<g transform="translate(${n(W / 2)} 0) scale(${n(turn * 100) / 100} 1) translate(${n(-W / 2)} 0)">${c.body.replace(objectRoom(0, W, H), "")}</g>`,
    );
  }
  const W = LONG_SIDE;
  const H = Math.round(LONG_SIDE / 1.5);
  const h = H * 0.72;
  const w = Math.min(W * 0.5, (h * c.width) / c.height) * 0.55;
  const x = W * 0.35;
  const y = (H - h) / 2;
  const skew = 0.12 + r.next() * 0.1;
  const edge = Math.max(6, w * 0.06);
  // Seen from the left or, mirrored, from the right.
  const mirror = r.chance(0.5) ? `matrix(-1 0 0 1 ${W} 0) ` : "";
  return svg(
    W,
    H,
    `${WALL}<rect width="${W}" height="${H}" fill="url(#room)"/>
<g transform="${mirror}matrix(1 ${n(-skew * 100) / 100} 0 1 0 ${n(x * skew)})"><rect x="${n(x - edge)}" y="${n(y)}" width="${n(edge)}" height="${n(h)}" fill="${c.ground}"/><rect x="${n(x - edge)}" y="${n(y)}" width="${n(edge)}" height="${n(h)}" fill="#000" opacity="0.3"/>${nested(c, x, y, w, h)}</g>`,
  );
}

/** The back: stretcher bars on raw linen for a canvas, the sheet's back for paper, the shadow side of an object. */
function verso(subject: PictureSubject, c: Composition): string {
  const { width: W, height: H } = c;
  const kind = kindOf(subject.medium);
  if (kind === "object")
    return svg(
      W,
      H,
      `<g transform="matrix(-1 0 0 1 ${W} 0)">${c.body}</g><rect width="${W}" height="${H}" fill="#000" opacity="0.28"/>`,
    );
  if (kind !== "painting") {
    const r = rngOf(subject.id, "verso");
    return svg(
      W,
      H,
      `<rect width="${W}" height="${H}" fill="#ece6d8"/><path d="M${n(W * 0.1)} ${n(H * 0.88)}h${n(W * (0.2 + r.next() * 0.2))}M${n(W * 0.1)} ${n(H * 0.92)}h${n(W * 0.12)}" stroke="#8c8a85" stroke-width="2"/>`,
    );
  }
  const bar = Math.min(W, H) * 0.07;
  return svg(
    W,
    H,
    `<rect width="${W}" height="${H}" fill="#d6c6a5"/><g fill="#b89868" stroke="#8e7148" stroke-width="2">
<rect x="${n(bar * 0.4)}" y="${n(bar * 0.4)}" width="${n(W - bar * 0.8)}" height="${n(bar)}"/><rect x="${n(bar * 0.4)}" y="${n(H - bar * 1.4)}" width="${n(W - bar * 0.8)}" height="${n(bar)}"/>
<rect x="${n(bar * 0.4)}" y="${n(bar * 0.4)}" width="${n(bar)}" height="${n(H - bar * 0.8)}"/><rect x="${n(W - bar * 1.4)}" y="${n(bar * 0.4)}" width="${n(bar)}" height="${n(H - bar * 0.8)}"/>
${H > W * 0.9 ? `<rect x="${n(bar * 0.4)}" y="${n(H / 2 - bar / 2)}" width="${n(W - bar * 0.8)}" height="${n(bar)}"/>` : ""}</g>
<rect x="${n(W * 0.55)}" y="${n(H * 0.62)}" width="${n(W * 0.28)}" height="${n(H * 0.12)}" fill="#fbfaf6"/>`,
  );
}

async function encode(source: string): Promise<Picture> {
  const { data, info } = await sharp(Buffer.from(source)).jpeg(JPEG).toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), contentType: "image/jpeg", width: info.width, height: info.height };
}

/**
 * One of the work's images: `work` is the work itself, the other views are drawn from it. `position` (the image's
 * place among the work's images) varies a view the work has twice.
 */
export function renderArtworkPicture(subject: PictureSubject, view: View, position = 0): Promise<Picture> {
  const c = compose(subject);
  const r = rngOf(subject.id, view, position);
  switch (view) {
    case "work":
      return encode(svg(c.width, c.height, c.body));
    case "detail": {
      // A third of the work, where the hash says, enlarged to the full picture.
      const [w, h] = [c.width / 3, c.height / 3];
      return encode(
        svg(
          c.width,
          c.height,
          c.body,
          `${n(r.next() * (c.width - w))} ${n(r.next() * (c.height - h))} ${n(w)} ${n(h)}`,
        ),
      );
    }
    case "verso":
      return encode(verso(subject, c));
    case "installation":
      return encode(installation(subject, c, r));
    case "side":
      return encode(side(subject, c, r));
  }
}

/** A publication's cover: a portrait board in the title's colour with a plate of the gallery's kind of work. */
export function renderCover(publication: { id: string; title: string; kind: string }): Promise<Picture> {
  const r = rngOf(publication.id, publication.title, publication.kind);
  const pal = r.pick(PALETTES);
  const [W, H] = [600, 800];
  const plate = { x: 70, y: 90, w: 460, h: 460 };
  const inner = DRAW[r.pick(STYLES)](r, pal, plate.w, plate.h);
  return encode(
    svg(
      W,
      H,
      `<rect width="${W}" height="${H}" fill="${pal[0]}"/><svg x="${plate.x}" y="${plate.y}" width="${plate.w}" height="${plate.h}" viewBox="0 0 ${plate.w} ${plate.h}"><rect width="${plate.w}" height="${plate.h}" fill="${r.pick(pal.slice(1))}" opacity="0.25"/>${inner}</svg>
<rect x="70" y="620" width="${n(160 + r.next() * 240)}" height="14" fill="${pal[4]}"/><rect x="70" y="652" width="${n(100 + r.next() * 140)}" height="8" fill="${pal[4]}" opacity="0.6"/>`,
    ),
  );
}
