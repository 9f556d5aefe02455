/**
 * Places for segment rubrics: the countries, cities and regions a rubric or a contact's notes name, and the
 * weaker signals a contact record carries (a phone's calling code, an email's country domain). Shared by the
 * rubric judge and the profile loader, which derives `ContactProfile.country` from them.
 */

/** Folds case and accents so "Zürich", "zurich" and "ZURICH" compare equal. */
export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/** Country names, adjectives and codes as people write them, to ISO 3166-1 alpha-2. */
const COUNTRY_NAMES: Record<string, string> = {
  uk: "GB",
  "u.k.": "GB",
  "united kingdom": "GB",
  britain: "GB",
  "great britain": "GB",
  british: "GB",
  gb: "GB",
  england: "GB",
  english: "GB",
  wales: "GB",
  welsh: "GB",
  scotland: "GB",
  scottish: "GB",
  "northern ireland": "GB",
  us: "US",
  usa: "US",
  "u.s.": "US",
  "u.s.a.": "US",
  "united states": "US",
  america: "US",
  american: "US",
  france: "FR",
  french: "FR",
  germany: "DE",
  german: "DE",
  switzerland: "CH",
  swiss: "CH",
  italy: "IT",
  italian: "IT",
  netherlands: "NL",
  "the netherlands": "NL",
  holland: "NL",
  dutch: "NL",
  belgium: "BE",
  belgian: "BE",
  spain: "ES",
  spanish: "ES",
  portugal: "PT",
  portuguese: "PT",
  austria: "AT",
  austrian: "AT",
  ireland: "IE",
  irish: "IE",
  sweden: "SE",
  swedish: "SE",
  denmark: "DK",
  danish: "DK",
  norway: "NO",
  norwegian: "NO",
  finland: "FI",
  finnish: "FI",
  japan: "JP",
  japanese: "JP",
  "hong kong": "HK",
  singapore: "SG",
  singaporean: "SG",
  korea: "KR",
  "south korea": "KR",
  korean: "KR",
  china: "CN",
  chinese: "CN",
  taiwan: "TW",
  taiwanese: "TW",
  india: "IN",
  indian: "IN",
  uae: "AE",
  "united arab emirates": "AE",
  emirati: "AE",
  "saudi arabia": "SA",
  saudi: "SA",
  qatar: "QA",
  qatari: "QA",
  kuwait: "KW",
  australia: "AU",
  australian: "AU",
  "new zealand": "NZ",
  canada: "CA",
  canadian: "CA",
  mexico: "MX",
  mexican: "MX",
  brazil: "BR",
  brazilian: "BR",
  argentina: "AR",
  "south africa": "ZA",
  israel: "IL",
  israeli: "IL",
  greece: "GR",
  greek: "GR",
  poland: "PL",
  polish: "PL",
  luxembourg: "LU",
  monaco: "MC",
};

/**
 * Names that are also common words ("us", "nice", "bath"): they count as places only when capitalised as names
 * are ("in the US", "Nice", "Bath").
 */
const CAPITALISED_ONLY = new Set(["uk", "us", "usa", "gb", "uae", "nice", "bath", "reading"]);

/** Cities, with their country and, where rubrics name it, the region. */
const CITIES: Record<string, { country: string; region?: string }> = {
  london: { country: "GB", region: "England" },
  edinburgh: { country: "GB", region: "Scotland" },
  glasgow: { country: "GB", region: "Scotland" },
  aberdeen: { country: "GB", region: "Scotland" },
  dundee: { country: "GB", region: "Scotland" },
  inverness: { country: "GB", region: "Scotland" },
  "st andrews": { country: "GB", region: "Scotland" },
  manchester: { country: "GB", region: "England" },
  bath: { country: "GB", region: "England" },
  oxford: { country: "GB", region: "England" },
  cambridge: { country: "GB", region: "England" },
  bristol: { country: "GB", region: "England" },
  liverpool: { country: "GB", region: "England" },
  leeds: { country: "GB", region: "England" },
  birmingham: { country: "GB", region: "England" },
  brighton: { country: "GB", region: "England" },
  cardiff: { country: "GB", region: "Wales" },
  belfast: { country: "GB", region: "Northern Ireland" },
  paris: { country: "FR" },
  lyon: { country: "FR" },
  marseille: { country: "FR" },
  bordeaux: { country: "FR" },
  nice: { country: "FR" },
  berlin: { country: "DE" },
  munich: { country: "DE" },
  munchen: { country: "DE" },
  hamburg: { country: "DE" },
  cologne: { country: "DE" },
  koln: { country: "DE" },
  dusseldorf: { country: "DE" },
  frankfurt: { country: "DE" },
  geneva: { country: "CH" },
  geneve: { country: "CH" },
  zurich: { country: "CH" },
  basel: { country: "CH" },
  lausanne: { country: "CH" },
  bern: { country: "CH" },
  "new york": { country: "US", region: "New York" },
  nyc: { country: "US", region: "New York" },
  manhattan: { country: "US", region: "New York" },
  brooklyn: { country: "US", region: "New York" },
  "los angeles": { country: "US", region: "California" },
  "san francisco": { country: "US", region: "California" },
  chicago: { country: "US" },
  miami: { country: "US" },
  houston: { country: "US" },
  boston: { country: "US" },
  washington: { country: "US" },
  milan: { country: "IT" },
  milano: { country: "IT" },
  rome: { country: "IT" },
  roma: { country: "IT" },
  turin: { country: "IT" },
  venice: { country: "IT" },
  florence: { country: "IT" },
  amsterdam: { country: "NL" },
  rotterdam: { country: "NL" },
  "the hague": { country: "NL" },
  brussels: { country: "BE" },
  bruxelles: { country: "BE" },
  antwerp: { country: "BE" },
  ghent: { country: "BE" },
  madrid: { country: "ES" },
  barcelona: { country: "ES" },
  valencia: { country: "ES" },
  lisbon: { country: "PT" },
  porto: { country: "PT" },
  vienna: { country: "AT" },
  wien: { country: "AT" },
  dublin: { country: "IE" },
  cork: { country: "IE" },
  stockholm: { country: "SE" },
  gothenburg: { country: "SE" },
  copenhagen: { country: "DK" },
  aarhus: { country: "DK" },
  oslo: { country: "NO" },
  helsinki: { country: "FI" },
  tokyo: { country: "JP" },
  osaka: { country: "JP" },
  kyoto: { country: "JP" },
  singapore: { country: "SG" },
  "hong kong": { country: "HK" },
  seoul: { country: "KR" },
  busan: { country: "KR" },
  shanghai: { country: "CN" },
  beijing: { country: "CN" },
  taipei: { country: "TW" },
  mumbai: { country: "IN" },
  delhi: { country: "IN" },
  dubai: { country: "AE" },
  "abu dhabi": { country: "AE" },
  doha: { country: "QA" },
  riyadh: { country: "SA" },
  sydney: { country: "AU" },
  melbourne: { country: "AU" },
  toronto: { country: "CA" },
  montreal: { country: "CA" },
  "mexico city": { country: "MX" },
  "sao paulo": { country: "BR" },
  "tel aviv": { country: "IL" },
  athens: { country: "GR" },
};

/** The European Union's member states. */
const EU = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
];
/** Europe: the EU and the rest of the continent a gallery's clients live in. */
const EUROPE = [...EU, "GB", "CH", "NO", "MC", "IS"];
const ASIA = ["JP", "HK", "SG", "KR", "CN", "TW", "IN", "TH", "MY", "ID", "PH", "VN"];
const NORDIC = ["SE", "DK", "NO", "FI", "IS"];
const SCANDINAVIA = ["SE", "DK", "NO"];

/** Groups of countries a rubric names as one place. */
const GROUPS: Record<string, string[]> = {
  eu: EU,
  europe: EUROPE,
  european: EUROPE,
  asia: ASIA,
  asian: ASIA,
  "east asia": ["JP", "HK", "KR", "CN", "TW"],
  "middle east": ["AE", "SA", "QA", "KW", "BH", "OM", "IL", "LB", "JO"],
  gulf: ["AE", "SA", "QA", "KW", "BH", "OM"],
  nordic: NORDIC,
  nordics: NORDIC,
  scandinavia: SCANDINAVIA,
  scandinavian: SCANDINAVIA,
  benelux: ["BE", "NL", "LU"],
  dach: ["DE", "AT", "CH"],
  // Where a language is spoken at home, for "German-speaking collectors".
  "german-speaking": ["DE", "AT", "CH", "LI", "LU"],
  "french-speaking": ["FR", "BE", "CH", "LU", "MC"],
  francophone: ["FR", "BE", "CH", "LU", "MC"],
  "spanish-speaking": ["ES", "MX", "AR", "CO", "CL", "PE", "UY"],
  hispanic: ["ES", "MX", "AR", "CO", "CL", "PE", "UY"],
  "italian-speaking": ["IT", "CH", "SM"],
  "dutch-speaking": ["NL", "BE"],
  "portuguese-speaking": ["PT", "BR"],
  lusophone: ["PT", "BR"],
  "english-speaking": ["GB", "US", "IE", "CA", "AU", "NZ"],
  anglophone: ["GB", "US", "IE", "CA", "AU", "NZ"],
  "north america": ["US", "CA"],
  "north american": ["US", "CA"],
  "latin america": ["MX", "BR", "AR", "CL", "CO", "PE"],
};

/** Regions within a country that rubrics name ("Scotland"): matched through a city or the profile's region. */
const REGIONS: Record<string, { country: string; region: string }> = {
  scotland: { country: "GB", region: "Scotland" },
  scottish: { country: "GB", region: "Scotland" },
  england: { country: "GB", region: "England" },
  wales: { country: "GB", region: "Wales" },
  welsh: { country: "GB", region: "Wales" },
  california: { country: "US", region: "California" },
};

/** A place a rubric names: countries (any of), or a region or city inside one country. */
export interface Place {
  label: string;
  countries: string[];
  region?: string;
  city?: string;
}

/** Every place name the gazetteer knows, longest first, for scanning text. */
const NAMES: { name: string; place: Place }[] = (() => {
  const out: { name: string; place: Place }[] = [];
  for (const [name, countries] of Object.entries(GROUPS))
    out.push({ name, place: { label: name, countries } });
  for (const [name, r] of Object.entries(REGIONS)) {
    out.push({ name, place: { label: name, countries: [r.country], region: r.region } });
  }
  for (const [name, c] of Object.entries(CITIES)) {
    if (name in REGIONS || name in GROUPS) continue;
    out.push({ name, place: { label: name, countries: [c.country], city: name } });
  }
  for (const [name, code] of Object.entries(COUNTRY_NAMES)) {
    if (name in REGIONS || name in CITIES || name in GROUPS) continue;
    out.push({ name, place: { label: name, countries: [code] } });
  }
  return out.sort((a, b) => b.name.length - a.name.length);
})();

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One compiled pattern over every name (folded text, word-bounded). */
const NAME_RE = new RegExp(`(?<![a-z0-9])(${NAMES.map((n) => escapeRe(n.name)).join("|")})(?![a-z0-9])`, "g");

export interface PlaceMention {
  place: Place;
  start: number;
  end: number;
}

/**
 * The places named in a text (folded offsets equal the input's for Latin text). Names that are also common words
 * count only when capitalised in the original, so the pronoun "us" is not the United States.
 */
export function findPlaces(text: string): PlaceMention[] {
  const folded = fold(text);
  const out: PlaceMention[] = [];
  for (const m of folded.matchAll(NAME_RE)) {
    const name = m[1]!;
    const start = m.index;
    if (CAPITALISED_ONLY.has(name.replace(/\./g, ""))) {
      const original = text.slice(start, start + name.length);
      if (original[0] === original[0]?.toLowerCase()) continue;
    }
    const entry = NAMES.find((n) => n.name === name);
    if (entry) out.push({ place: entry.place, start, end: start + name.length });
  }
  return out;
}

/** The country and region of a known city, by name. */
export function cityInfo(name: string): { country: string; region?: string } | null {
  return CITIES[fold(name).trim()] ?? null;
}

/** Calling codes to countries (longest prefix wins); +1 is read as the US (Canada shares it). */
const CALLING: [string, string][] = (
  [
    ["1", "US"],
    ["44", "GB"],
    ["33", "FR"],
    ["49", "DE"],
    ["41", "CH"],
    ["39", "IT"],
    ["31", "NL"],
    ["32", "BE"],
    ["34", "ES"],
    ["351", "PT"],
    ["43", "AT"],
    ["353", "IE"],
    ["46", "SE"],
    ["45", "DK"],
    ["47", "NO"],
    ["358", "FI"],
    ["81", "JP"],
    ["852", "HK"],
    ["65", "SG"],
    ["82", "KR"],
    ["86", "CN"],
    ["886", "TW"],
    ["91", "IN"],
    ["971", "AE"],
    ["966", "SA"],
    ["974", "QA"],
    ["965", "KW"],
    ["61", "AU"],
    ["64", "NZ"],
    ["52", "MX"],
    ["55", "BR"],
    ["54", "AR"],
    ["27", "ZA"],
    ["972", "IL"],
    ["30", "GR"],
    ["48", "PL"],
    ["352", "LU"],
    ["377", "MC"],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

/** The country of an international phone number ("+44 7700 900123", "0044…"); null for a national number. */
export function countryFromPhone(phone: string | null): string | null {
  if (!phone) return null;
  const compact = phone.replace(/[\s().-]/g, "");
  const m = /^(?:\+|00)(\d+)/.exec(compact);
  if (!m) return null;
  for (const [code, country] of CALLING) if (m[1]!.startsWith(code)) return country;
  return null;
}

/** The country of an email's country-code domain ("…@studio.co.uk" → GB); null for .com and the like. */
export function countryFromEmail(email: string | null): string | null {
  if (!email) return null;
  const domain = email.split("@")[1]?.toLowerCase();
  if (!domain) return null;
  const tld = domain.split(".").pop() ?? "";
  const map: Record<string, string> = { uk: "GB", eu: "" };
  if (tld in map) return map[tld] || null;
  if (tld.length !== 2) return null;
  const code = tld.toUpperCase();
  // Domains sold worldwide as brands, not places.
  if (["IO", "CO", "TV", "ME", "AI", "LY", "FM", "GG", "TO", "WS", "CC"].includes(code)) return null;
  return code;
}

/** ISO 3166-1 alpha-2 for a country written in an address line ("GB", "United Kingdom", "Deutschland"). */
export function countryCode(name: string | null): string | null {
  if (!name) return null;
  const f = fold(name).trim();
  if (/^[a-z]{2}$/.test(f)) return f === "uk" ? "GB" : f.toUpperCase();
  const extra: Record<string, string> = {
    deutschland: "DE",
    schweiz: "CH",
    suisse: "CH",
    espana: "ES",
    italia: "IT",
  };
  return COUNTRY_NAMES[f] ?? extra[f] ?? null;
}
