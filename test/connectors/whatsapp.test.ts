import { describe, expect, it } from "vitest";
import type { ConnectorMessage } from "../../lib/connectors/message";
import {
  parseWhatsAppDelivery,
  verifyWhatsAppHandshake,
  verifyWhatsAppSignature,
  WhatsAppWebhook,
  type WhatsAppWebhookPayload,
} from "../../lib/connectors/whatsapp";
import audioVoice from "./fixtures/whatsapp/audio-voice.json?raw";
import button from "./fixtures/whatsapp/button.json?raw";
import contacts from "./fixtures/whatsapp/contacts.json?raw";
import documentMessage from "./fixtures/whatsapp/document.json?raw";
import image from "./fixtures/whatsapp/image.json?raw";
import buttonReply from "./fixtures/whatsapp/interactive-button-reply.json?raw";
import listReply from "./fixtures/whatsapp/interactive-list-reply.json?raw";
import location from "./fixtures/whatsapp/location.json?raw";
import reaction from "./fixtures/whatsapp/reaction.json?raw";
import reply from "./fixtures/whatsapp/reply.json?raw";
import statusDelivered from "./fixtures/whatsapp/status-delivered.json?raw";
import statusFailed from "./fixtures/whatsapp/status-failed.json?raw";
import sticker from "./fixtures/whatsapp/sticker.json?raw";
import text from "./fixtures/whatsapp/text.json?raw";
import twoContacts from "./fixtures/whatsapp/two-contacts.json?raw";
import unsupported from "./fixtures/whatsapp/unsupported.json?raw";
import video from "./fixtures/whatsapp/video.json?raw";

/**
 * The WhatsApp Cloud API connector (lib/connectors/whatsapp.ts) against deliveries written as Meta's webhook
 * reference shows them (test/connectors/fixtures/whatsapp/): the signature over the raw body, the subscription
 * handshake, the payload's schema, and each message type read into the inbox's message shape.
 */

const encoder = new TextEncoder();
const APP_SECRET = "test-app-secret-not-for-production";

/** `sha256=<hex>` as Meta computes it, with WebCrypto here rather than the module's code. */
async function metaSignature(body: Uint8Array, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function payload(raw: string): WhatsAppWebhookPayload {
  return WhatsAppWebhook.parse(JSON.parse(raw));
}

const read = (raw: string) => parseWhatsAppDelivery(payload(raw));

type Json = Record<string, unknown>;
interface Edit {
  body: Json;
  value: Json;
  message: Json;
}

/** A fixture's JSON, its first change's value and first message at hand, to change before it is parsed. */
function edit(raw: string): Edit {
  const body = JSON.parse(raw);
  const value = body.entry[0].changes[0].value;
  return { body, value, message: value.messages?.[0] };
}

/** The one message a single-message fixture reads to. */
function only(raw: string): ConnectorMessage {
  const delivery = read(raw);
  expect(delivery.statuses).toEqual([]);
  expect(delivery.ignored).toEqual([]);
  expect(delivery.messages).toHaveLength(1);
  return delivery.messages[0]!;
}

const SHEENA = { address: "+16505551234", name: "Sheena Nelson" };
const BUSINESS = ["+15550783881"];

/** What every inbound message of Sheena's fixtures shares. */
const fromSheena = {
  providerThreadId: "+16505551234",
  direction: "inbound",
  from: SHEENA,
  to: BUSINESS,
  subject: null,
  authentication: null,
  forwardedBy: null,
} as const;

describe("verifyWhatsAppSignature", () => {
  const body = encoder.encode(text);

  it("accepts the HMAC-SHA256 of the raw body under the app secret", async () => {
    const header = await metaSignature(body, APP_SECRET);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verifyWhatsAppSignature(body, header, APP_SECRET)).toBe(true);
  });

  it("agrees with RFC 4231's HMAC-SHA256 test case 2", async () => {
    const header = "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(
      await verifyWhatsAppSignature(encoder.encode("what do ya want for nothing?"), header, "Jefe"),
    ).toBe(true);
    expect(
      await verifyWhatsAppSignature(encoder.encode("what do ya want for nothing!"), header, "Jefe"),
    ).toBe(false);
  });

  it("accepts the hex in upper case too", async () => {
    const header = await metaSignature(body, APP_SECRET);
    expect(await verifyWhatsAppSignature(body, `sha256=${header.slice(7).toUpperCase()}`, APP_SECRET)).toBe(
      true,
    );
  });

  it("refuses a signature made with another secret", async () => {
    const header = await metaSignature(body, "another-app-secret");
    expect(await verifyWhatsAppSignature(body, header, APP_SECRET)).toBe(false);
  });

  it("refuses a body with one byte changed", async () => {
    const header = await metaSignature(body, APP_SECRET);
    for (const at of [0, Math.floor(body.length / 2), body.length - 1]) {
      const tampered = body.slice();
      tampered[at] = tampered[at]! ^ 0x01;
      expect(await verifyWhatsAppSignature(tampered, header, APP_SECRET)).toBe(false);
    }
    expect(await verifyWhatsAppSignature(body.slice(0, -1), header, APP_SECRET)).toBe(false);
  });

  it("verifies the bytes as sent, not the JSON parsed and written again (Meta escapes non-ASCII and /)", async () => {
    for (const raw of [reaction, location]) {
      const sent = encoder.encode(raw);
      const header = await metaSignature(sent, APP_SECRET);
      expect(await verifyWhatsAppSignature(sent, header, APP_SECRET)).toBe(true);
      const rewritten = encoder.encode(JSON.stringify(JSON.parse(raw), null, 2));
      expect(rewritten).not.toEqual(sent);
      expect(await verifyWhatsAppSignature(rewritten, header, APP_SECRET)).toBe(false);
    }
  });

  it("refuses a missing or malformed header", async () => {
    const header = await metaSignature(body, APP_SECRET);
    const hex = header.slice("sha256=".length);
    for (const bad of [
      undefined,
      "",
      hex,
      `sha1=${hex}`,
      `SHA256=${hex}`,
      `sha256=${hex.slice(0, -1)}`,
      `sha256=${hex}0`,
      `sha256=${hex} `,
      ` ${header}`,
      `sha256=${hex.slice(0, -1)}g`,
      `sha256=${"0".repeat(64)}`,
      `${header},${header}`,
    ]) {
      expect(await verifyWhatsAppSignature(body, bad, APP_SECRET), String(bad)).toBe(false);
    }
  });

  it("refuses everything under an empty secret", async () => {
    expect(await verifyWhatsAppSignature(body, await metaSignature(body, APP_SECRET), "")).toBe(false);
  });
});

describe("verifyWhatsAppHandshake", () => {
  const TOKEN = "verify-token-for-tests";

  it("answers the challenge when the mode is subscribe and the token matches", async () => {
    const query = { mode: "subscribe", verifyToken: TOKEN, challenge: "1158201444" };
    expect(await verifyWhatsAppHandshake(query, TOKEN)).toBe("1158201444");
  });

  it("refuses a wrong token, a prefix of the token, or a longer one", async () => {
    for (const verifyToken of [
      "verify-token-for-test",
      `${TOKEN}s`,
      "VERIFY-TOKEN-FOR-TESTS",
      "",
      null,
      undefined,
    ]) {
      const query = { mode: "subscribe", verifyToken, challenge: "1158201444" };
      expect(await verifyWhatsAppHandshake(query, TOKEN), String(verifyToken)).toBeNull();
    }
  });

  it("refuses another mode", async () => {
    for (const mode of ["unsubscribe", "Subscribe", "", null, undefined]) {
      expect(await verifyWhatsAppHandshake({ mode, verifyToken: TOKEN, challenge: "42" }, TOKEN)).toBeNull();
    }
  });

  it("refuses a missing challenge, or one that is not a plain token", async () => {
    for (const challenge of [undefined, null, "", "<script>alert(1)</script>", "1 2", "x".repeat(129)]) {
      const query = { mode: "subscribe", verifyToken: TOKEN, challenge };
      expect(await verifyWhatsAppHandshake(query, TOKEN), String(challenge)).toBeNull();
    }
  });

  it("refuses everything when no token was configured", async () => {
    expect(
      await verifyWhatsAppHandshake({ mode: "subscribe", verifyToken: "", challenge: "42" }, ""),
    ).toBeNull();
  });
});

describe("WhatsAppWebhook: the payload's schema", () => {
  const fixtures = {
    audioVoice,
    button,
    contacts,
    documentMessage,
    image,
    buttonReply,
    listReply,
    location,
    reaction,
    reply,
    statusDelivered,
    statusFailed,
    sticker,
    text,
    twoContacts,
    unsupported,
    video,
  };

  it("accepts every fixture", () => {
    for (const [name, raw] of Object.entries(fixtures)) {
      expect(WhatsAppWebhook.safeParse(JSON.parse(raw)).success, name).toBe(true);
    }
  });

  it("allows fields Meta adds, and keeps them", () => {
    const body = JSON.parse(text);
    body.entry[0].changes[0].value.messages[0].new_field = { anything: 1 };
    body.entry[0].changes[0].value.brand_new = true;
    const parsed = WhatsAppWebhook.parse(body);
    const value = parsed.entry[0]!.changes[0]!.value as Record<string, unknown>;
    expect(value.brand_new).toBe(true);
  });

  it("accepts changes of other fields, and the delivery reads them as nothing", () => {
    const body = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "102290129340398",
          changes: [{ field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }],
        },
      ],
    };
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(body))).toEqual({
      messages: [],
      statuses: [],
      ignored: [],
    });
  });

  it("refuses what it cannot read", () => {
    const cases: [string, (fixture: Edit) => void][] = [
      ["another object", ({ body }) => Object.assign(body, { object: "page" })],
      ["a messages change without metadata", ({ value }) => delete value.metadata],
      ["another messaging product", ({ value }) => Object.assign(value, { messaging_product: "instagram" })],
      [
        "a timestamp that is not Unix seconds",
        ({ message }) => Object.assign(message, { timestamp: "2025-06-08" }),
      ],
      ["a message without id", ({ message }) => delete message.id],
      ["a text message without text", ({ message }) => delete message.text],
      ["a text without body", ({ message }) => Object.assign(message, { text: {} })],
      [
        "a sender that is not a WhatsApp id",
        ({ message }) => Object.assign(message, { from: "+16505551234" }),
      ],
    ];
    for (const [name, change] of cases) {
      const fixture = edit(text);
      change(fixture);
      expect(WhatsAppWebhook.safeParse(fixture.body).success, name).toBe(false);
    }
    const media = JSON.parse(image);
    delete media.entry[0].changes[0].value.messages[0].image.id;
    expect(WhatsAppWebhook.safeParse(media).success, "an image without its media id").toBe(false);
    const choice = JSON.parse(buttonReply);
    delete choice.entry[0].changes[0].value.messages[0].interactive.button_reply;
    expect(WhatsAppWebhook.safeParse(choice).success, "a button reply without the button").toBe(false);
  });
});

describe("parseWhatsAppDelivery: each message type", () => {
  it("text", () => {
    expect(only(text)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
      replyTo: [],
      body: "Is the large blue canvas from the spring show still available?",
      sentAt: "2025-06-08T20:59:43.000Z",
      attachments: [],
    });
  });

  it("an image with a caption: the caption is the body", () => {
    expect(only(image)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwMkQ5NEY3QjU4RjI3QzE0MQA=",
      replyTo: [],
      body: "This one, on the left wall",
      sentAt: "2025-06-08T21:01:41.000Z",
      attachments: [
        { filename: null, contentType: "image/jpeg", size: null, providerMediaId: "1003383421387256" },
      ],
    });
  });

  it("a document without caption: its file name, and an empty body", () => {
    expect(only(documentMessage)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwRDA0QjE2QjlFMjc1NkE3QQA=",
      replyTo: [],
      body: "",
      sentAt: "2025-06-08T21:03:42.000Z",
      attachments: [
        {
          filename: "Condition report - Untitled (Blue).pdf",
          contentType: "application/pdf",
          size: null,
          providerMediaId: "1219571452847910",
        },
      ],
    });
  });

  it("a voice note: audio/ogg without its codecs parameter", () => {
    expect(only(audioVoice)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwNjdBOEM1RjBBMTI0QzNFOQA=",
      replyTo: [],
      body: "",
      sentAt: "2025-06-08T21:05:45.000Z",
      attachments: [
        { filename: null, contentType: "audio/ogg", size: null, providerMediaId: "1880743259465981" },
      ],
    });
  });

  it("a video and a sticker", () => {
    expect(only(video)).toMatchObject({
      body: "",
      sentAt: "2025-06-08T21:06:42.000Z",
      attachments: [
        { filename: null, contentType: "video/mp4", size: null, providerMediaId: "2093818174430192" },
      ],
    });
    expect(only(sticker)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwOEVGMzI5QTdDNjE1RDBCOAA=",
      replyTo: [],
      body: "",
      sentAt: "2025-06-08T21:07:40.000Z",
      attachments: [
        { filename: null, contentType: "image/webp", size: null, providerMediaId: "774216385195013" },
      ],
    });
  });

  it("a location: 📍 name, address (latitude, longitude), then its link", () => {
    expect(only(location)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwMTE5RDlDQTQ4NzNFMjA1RQA=",
      replyTo: [],
      body: "📍 Tate Modern, Bankside, London SE1 9TG (51.507595, -0.099356)\nhttps://www.tate.org.uk/visit/tate-modern",
      sentAt: "2025-06-08T21:08:41.000Z",
      attachments: [],
    });
  });

  it("a location with coordinates alone", () => {
    const body = JSON.parse(location);
    body.entry[0].changes[0].value.messages[0].location = { latitude: 48.8606, longitude: 2.3376 };
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(body)).messages[0]!.body).toBe("📍 (48.8606, 2.3376)");
  });

  it("a shared contact card: 👤 name: phones, emails", () => {
    expect(only(contacts)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwMkE3RTU5QjgxRjQ2QzNEMAA=",
      replyTo: [],
      body: "👤 Margaret Okafor: +44 20 7946 0958, m.okafor@example.com",
      sentAt: "2025-06-08T21:10:03.000Z",
      attachments: [],
    });
  });

  it("a reply names the message it answers", () => {
    expect(only(reply)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwRjJCNjc4OUQ0QTAxRTU5QwA=",
      replyTo: ["wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI2QjU0RTk4RjE3QzBBMkQ5NDEA"],
      body: "Yes please, Thursday at 3pm works for the viewing.",
      sentAt: "2025-06-08T21:12:00.000Z",
      attachments: [],
    });
  });

  it("a button or list choice reads as what was chosen, replying to the message that offered it", () => {
    expect(only(buttonReply)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwNUM4QTMxRjdCMkU5RDA0NgA=",
      replyTo: ["wamid.HBgLMTY1MDU1NTEyMzQVAgARGBIxQzdGNEE5QjJFMEQ2NTgzRjEA"],
      body: "Confirm viewing",
      sentAt: "2025-06-08T21:13:50.000Z",
      attachments: [],
    });
    expect(only(listReply)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwOUQ2RjI0QTFDOEIzRTU3MAA=",
      replyTo: ["wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI4RDJBNkMwRTNGOUI0MTc1QzIA"],
      body: "Thursday 15:00",
      sentAt: "2025-06-08T21:15:01.000Z",
      attachments: [],
    });
    expect(only(button)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwN0UzQjZEMkY5QTE0QzhFNQA=",
      replyTo: ["wamid.HBgLMTY1MDU1NTEyMzQVAgARGBJCMzVFOUQxQTdDNEYyODA2RTgA"],
      body: "Count me in",
      sentAt: "2025-06-08T21:16:06.000Z",
      attachments: [],
    });
  });

  it("a flow's reply reads as its body; another interactive type as unsupported", () => {
    const flow = JSON.parse(buttonReply);
    flow.entry[0].changes[0].value.messages[0].interactive = {
      type: "nfm_reply",
      nfm_reply: { name: "flow", body: "Sent", response_json: '{"flow_token":"t"}' },
    };
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(flow)).messages[0]!.body).toBe("Sent");
    const call = JSON.parse(buttonReply);
    call.entry[0].changes[0].value.messages[0].interactive = {
      type: "call_permission_reply",
      call_permission_reply: { response: "accept" },
    };
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(call)).messages[0]!.body).toBe(
      "[unsupported message: interactive call_permission_reply]",
    );
  });

  it("a reaction reads as its emoji, replying to the message it reacts to", () => {
    expect(only(reaction)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwQTRGMUU4QzI3RDVCMzA5OQA=",
      replyTo: ["wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI2QjU0RTk4RjE3QzBBMkQ5NDEA"],
      body: "❤️",
      sentAt: "2025-06-08T21:17:00.000Z",
      attachments: [],
    });
  });

  it("an unsupported message reads as a marker naming its type", () => {
    expect(only(unsupported)).toEqual({
      ...fromSheena,
      providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwNkI5RDJDNEE4RjFFMzcwQgA=",
      replyTo: [],
      body: "[unsupported message: edit]",
      sentAt: "2025-06-08T21:20:02.000Z",
      attachments: [],
    });
    const unknown = JSON.parse(unsupported);
    const message = unknown.entry[0].changes[0].value.messages[0];
    message.type = "unknown";
    delete message.unsupported;
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(unknown)).messages[0]!.body).toBe(
      "[unsupported message: unknown]",
    );
    message.type = "order";
    message.order = { catalog_id: "1", product_items: [] };
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(unknown)).messages[0]!.body).toBe(
      "[unsupported message: order]",
    );
  });

  it("a sender without a profile name has a null name", () => {
    const body = JSON.parse(text);
    delete body.entry[0].changes[0].value.contacts;
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(body)).messages[0]!.from).toEqual({
      address: "+16505551234",
      name: null,
    });
  });
});

describe("parseWhatsAppDelivery: deliveries of several", () => {
  it("two messages from two contacts become two messages, each with its sender's name and thread", () => {
    const delivery = read(twoContacts);
    expect(delivery.statuses).toEqual([]);
    expect(delivery.ignored).toEqual([]);
    expect(delivery.messages).toEqual([
      {
        ...fromSheena,
        providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwQzFEOEE1RjJCNkUzOTA3NAA=",
        replyTo: [],
        body: "Could you send me the price list for the Nocturnes?",
        sentAt: "2025-06-08T21:18:00.000Z",
        attachments: [],
      },
      {
        ...fromSheena,
        providerMessageId: "wamid.HBgMNDQ3NzAwOTAwMTIzFQIAEhgUM0VCMEU3QjQ5QzJBNkQxRjgwNTMA",
        providerThreadId: "+447700900123",
        from: { address: "+447700900123", name: "Tomás Ferreira" },
        replyTo: [],
        body: "Bonjour, la galerie est-elle ouverte dimanche ?",
        sentAt: "2025-06-08T21:18:03.000Z",
        attachments: [],
      },
    ]);
  });

  it("several entries and changes: every message and status, in order", () => {
    const [first, second, third] = [text, image, statusDelivered].map((raw) => payload(raw));
    const combined = WhatsAppWebhook.parse({
      object: "whatsapp_business_account",
      entry: [
        { id: "102290129340398", changes: [...first!.entry[0]!.changes, ...third!.entry[0]!.changes] },
        second!.entry[0],
      ],
    });
    const delivery = parseWhatsAppDelivery(combined);
    expect(delivery.messages.map((m) => m.providerMessageId)).toEqual([
      "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
      "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwMkQ5NEY3QjU4RjI3QzE0MQA=",
    ]);
    expect(delivery.statuses.map((s) => s.status)).toEqual(["delivered"]);
  });
});

describe("parseWhatsAppDelivery: statuses, apart from messages", () => {
  it("a delivered status", () => {
    expect(read(statusDelivered)).toEqual({
      messages: [],
      ignored: [],
      statuses: [
        {
          providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI2QjU0RTk4RjE3QzBBMkQ5NDEA",
          status: "delivered",
          timestamp: "2025-06-08T21:10:12.000Z",
          recipient: "+16505551234",
          errors: [],
        },
      ],
    });
  });

  it("a failed status carries Meta's errors", () => {
    expect(read(statusFailed)).toEqual({
      messages: [],
      ignored: [],
      statuses: [
        {
          providerMessageId: "wamid.HBgMNDQ3NzAwOTAwMTIzFQIAERgSMUE5QzNFN0IyRDVGMDg0QjYA",
          status: "failed",
          timestamp: "2025-06-08T21:19:04.000Z",
          recipient: "+447700900123",
          errors: [
            {
              code: 131047,
              title: "Re-engagement message",
              details:
                "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
            },
          ],
        },
      ],
    });
  });
});

describe("parseWhatsAppDelivery: what is not a message for the inbox", () => {
  const ID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=";

  function withMessage(change: (message: Json, value: Json) => void) {
    const { body, value, message } = edit(text);
    change(message, value);
    return parseWhatsAppDelivery(WhatsAppWebhook.parse(body));
  }

  it("a removed reaction", () => {
    const removed = JSON.parse(reaction);
    delete removed.entry[0].changes[0].value.messages[0].reaction.emoji;
    expect(parseWhatsAppDelivery(WhatsAppWebhook.parse(removed))).toEqual({
      messages: [],
      statuses: [],
      ignored: [
        {
          providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzRUIwQTRGMUU4QzI3RDVCMzA5OQA=",
          type: "reaction",
          reason: "a reaction removed",
        },
      ],
    });
  });

  it("a sender whose number is withheld (known by a business-scoped id only)", () => {
    const delivery = withMessage((message, value) => {
      delete message.from;
      message.from_user_id = "US.13491208655302741918";
      value.contacts = [
        { profile: { name: "Sheena Nelson", username: "@sheena" }, user_id: "US.13491208655302741918" },
      ];
    });
    expect(delivery.messages).toEqual([]);
    expect(delivery.ignored).toEqual([
      {
        providerMessageId: ID,
        type: "text",
        reason: "the sender's number is withheld (a WhatsApp username)",
      },
    ]);
  });

  it("a group message, WhatsApp's notices", () => {
    expect(
      withMessage((message) => Object.assign(message, { group_id: "120363025246125486@g.us" })).ignored,
    ).toEqual([
      {
        providerMessageId: ID,
        type: "text",
        reason: "a group message; the inbox holds one-to-one conversations",
      },
    ]);
    const system = withMessage((message) => {
      delete message.text;
      message.type = "system";
      message.system = {
        body: "User A changed from 16505551234 to 16505550000",
        type: "user_changed_number",
      };
    });
    expect(system.messages).toEqual([]);
    expect(system.ignored).toEqual([
      {
        providerMessageId: ID,
        type: "system",
        reason: "a notice from WhatsApp (the user changed number), not a message",
      },
    ]);
    const welcome = withMessage((message) => {
      delete message.text;
      message.type = "request_welcome";
    });
    expect(welcome.ignored.map((i) => i.type)).toEqual(["request_welcome"]);
  });
});
