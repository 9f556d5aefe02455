// A gallery's public viewing room, read from the Gallery Platform API with a publishable token (gpub_).
// No framework and no build step: host this folder on any static host, on any origin (the public surface is
// CORS-open). Text is written with textContent only, so nothing the API returns is ever parsed as HTML.

const AVAILABILITY_LABELS = {
  available: "Available",
  reserved: "Reserved",
  sold: "Sold",
  not_for_sale: "Not for sale",
};

/** `?api=…&token=…&room=…` wins over the page's JSON config block. */
export function readConfig(location, document) {
  let block = {};
  const element = document.getElementById("viewing-room-config");
  if (element) {
    try {
      block = JSON.parse(element.textContent || "{}");
    } catch {
      block = {};
    }
  }
  const params = new URLSearchParams(location.search);
  const pick = (name) => params.get(name) || block[name] || "";
  return { api: pick("api").replace(/\/+$/, ""), token: pick("token"), room: pick("room") };
}

export function formatPrice(price) {
  if (!price) return "Price on request";
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: price.currency }).format(
      price.price_cents / 100,
    );
  } catch {
    return `${(price.price_cents / 100).toFixed(2)} ${price.currency}`;
  }
}

function formatDate(value) {
  return new Date(value).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

function roomUrl(config, suffix = "") {
  return `${config.api}/public/viewing-rooms/${encodeURIComponent(config.room)}${suffix}`;
}

/**
 * Best effort: a visitor's engagement (room_opened, artwork_viewed) is recorded for the gallery when it can be,
 * and a failure never disturbs the page.
 */
function recordEngagement(config, body) {
  fetch(roomUrl(config, "/engagements"), {
    method: "POST",
    headers: {
      Authorization: `Bearer ${config.token}`,
      "Content-Type": "application/json",
      "Idempotency-Key": crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  }).catch(() => {});
}

function show(state, message) {
  const main = document.getElementById("room");
  main.dataset.state = state;
  main.setAttribute("aria-busy", "false");
  document.getElementById("room-message").textContent = message || "";
}

function renderWork(template, work) {
  const item = template.content.firstElementChild.cloneNode(true);
  item.dataset.artworkId = work.id;
  const image = item.querySelector(".work-image");
  if (work.image_url) {
    // An image that cannot be loaded leaves the empty frame rather than a broken-image icon.
    image.addEventListener("error", () => image.removeAttribute("src"), { once: true });
    image.src = work.image_url;
    image.alt = work.title;
  }
  item.querySelector(".work-title").textContent = work.title;
  item.querySelector(".work-artists").textContent = work.artists.map((artist) => artist.name).join(", ");
  const year = work.date_display || (work.year === null ? "" : String(work.year));
  item.querySelector(".work-details").textContent = [year, work.medium, work.dimensions_text]
    .filter(Boolean)
    .join(" · ");
  item.querySelector(".work-price").textContent = formatPrice(work.price);
  const availability = item.querySelector(".work-availability");
  availability.dataset.availability = work.availability;
  availability.textContent = AVAILABILITY_LABELS[work.availability] || work.availability;
  return item;
}

function render(room) {
  document.title = room.title;
  document.getElementById("room-title").textContent = room.title;
  document.getElementById("room-description").textContent = room.description || "";
  document.getElementById("room-dates").textContent = room.closes_at
    ? `Open until ${formatDate(room.closes_at)}`
    : "";
  const template = document.getElementById("work-template");
  const list = document.getElementById("works");
  list.replaceChildren(...room.artworks.map((work) => renderWork(template, work)));
  show("ready", room.artworks.length === 0 ? "This room has no works yet." : "");
}

/** Each work is reported viewed once, when at least half of it has been on screen. */
function watchViews(config) {
  if (!("IntersectionObserver" in window)) return;
  const seen = new Set();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const id = entry.target.dataset.artworkId;
        if (!entry.isIntersecting || seen.has(id)) continue;
        seen.add(id);
        observer.unobserve(entry.target);
        recordEngagement(config, { kind: "artwork_viewed", artwork_id: id });
      }
    },
    { threshold: 0.5 },
  );
  for (const item of document.querySelectorAll(".work")) observer.observe(item);
}

export async function main() {
  const config = readConfig(window.location, document);
  if (!config.api || !config.token || !config.room) {
    document.getElementById("room-title").textContent = "Viewing room";
    show(
      "error",
      "This page needs the API's address, a publishable token and a room: ?api=…&token=gpub_…&room=…",
    );
    return;
  }
  let response;
  try {
    response = await fetch(roomUrl(config), { headers: { Authorization: `Bearer ${config.token}` } });
  } catch {
    document.getElementById("room-title").textContent = "Viewing room";
    show("error", "The viewing room could not be reached. Please try again later.");
    return;
  }
  if (response.status === 404) {
    document.getElementById("room-title").textContent = "Viewing room";
    show("not-found", "This viewing room is not open.");
    return;
  }
  if (!response.ok) {
    document.getElementById("room-title").textContent = "Viewing room";
    show("error", `The viewing room could not be loaded (${response.status}).`);
    return;
  }
  render(await response.json());
  recordEngagement(config, { kind: "room_opened" });
  watchViews(config);
}

main();
