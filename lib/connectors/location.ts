/**
 * A shared location as message text, the same for every channel that carries one (a WhatsApp location, a
 * location sent on WhatsApp through Twilio): `📍 <name>, <address> (<latitude>, <longitude>)`, then the place's
 * link on a line of its own when it came with one. The pin stands for the word, so the text reads the same in
 * every language; the name and the address are left out when absent, and the coordinates are written as the
 * provider wrote them (WhatsApp sends numbers, Twilio strings).
 */
export function locationText(place: {
  latitude: number | string;
  longitude: number | string;
  name?: string | null;
  address?: string | null;
  url?: string | null;
}): string {
  const label = [place.name, place.address].map((part) => part?.trim()).filter(Boolean);
  const coordinates = `(${String(place.latitude).trim()}, ${String(place.longitude).trim()})`;
  const line = label.length > 0 ? `📍 ${label.join(", ")} ${coordinates}` : `📍 ${coordinates}`;
  const url = place.url?.trim();
  return url ? `${line}\n${url}` : line;
}
