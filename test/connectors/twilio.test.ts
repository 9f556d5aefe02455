import { describe, expect, it } from "vitest";
import {
  EMPTY_TWIML,
  parseTwilioMessage,
  signedParams,
  TwilioInboundMessage,
  twilioSignatureUrls,
  verifyTwilioSignature,
} from "../../lib/connectors/twilio";
import mms from "./fixtures/twilio/mms.txt?raw";
import sms from "./fixtures/twilio/sms.txt?raw";
import unicode from "./fixtures/twilio/unicode.txt?raw";
import whatsapp from "./fixtures/twilio/whatsapp.txt?raw";
import whatsappLocation from "./fixtures/twilio/whatsapp-location.txt?raw";

/**
 * The Twilio connector (lib/connectors/twilio.ts) against request bodies written as Twilio posts them
 * (test/connectors/fixtures/twilio/): X-Twilio-Signature, with Twilio's documented example as a known answer and
 * the URL forms twilio-node accepts, the form parameters' schema, and each message read into the inbox's shape.
 */

const encoder = new TextEncoder();
const AUTH_TOKEN = "test-auth-token-not-for-production";
const WEBHOOK_URL = "https://api.gallery.example/v1/connectors/twilio/messages?connection=c8f2";
const RECEIVED_AT = new Date("2026-03-14T09:26:53.589Z");

/** Twilio's signature, computed here with WebCrypto over the string the documentation describes. */
async function twilioSignature(token: string, signedString: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(token),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signedString)));
  return btoa(String.fromCharCode(...mac));
}

/** The URL, then each parameter's name and value sorted by name: the documentation's recipe, written plainly. */
function documentedString(url: string, pairs: [string, string][]): string {
  return [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).reduce((s, [k, v]) => s + k + v, url);
}

const pairsOf = (body: string): [string, string][] => [...new URLSearchParams(body)];
const paramsOf = (body: string) => TwilioInboundMessage.parse(Object.fromEntries(new URLSearchParams(body)));

describe("verifyTwilioSignature", () => {
  /** Twilio's worked example (security documentation, "Validating requests"). */
  const DOC_URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
  const DOC_PARAMS = {
    CallSid: "CA1234567890ABCDE",
    Caller: "+12349013030",
    Digits: "1234",
    From: "+12349013030",
    To: "+18005551212",
  };

  it("agrees with Twilio's documented example", async () => {
    expect(signedParams(DOC_PARAMS)).toBe(
      "CallSidCA1234567890ABCDECaller+12349013030Digits1234From+12349013030To+18005551212",
    );
    expect(await twilioSignature("12345", DOC_URL + signedParams(DOC_PARAMS))).toBe(
      "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
    );
    expect(await verifyTwilioSignature(DOC_URL, DOC_PARAMS, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", "12345")).toBe(
      true,
    );
    const reversed = Object.entries(DOC_PARAMS).reverse();
    expect(await verifyTwilioSignature(DOC_URL, reversed, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", "12345")).toBe(
      true,
    );
    // The same MAC in base64url, or without its padding, is not the header Twilio sends.
    expect(await verifyTwilioSignature(DOC_URL, DOC_PARAMS, "0_KCTR6DLpKmkAf8muzZqo1nDgQ=", "12345")).toBe(
      false,
    );
    expect(await verifyTwilioSignature(DOC_URL, DOC_PARAMS, "0/KCTR6DLpKmkAf8muzZqo1nDgQ", "12345")).toBe(
      false,
    );
  });

  it("agrees with Twilio's other published example, and refuses either example's signature for the other", async () => {
    const params = { ...DOC_PARAMS, Caller: "+14158675310", From: "+14158675310" };
    expect(await verifyTwilioSignature(DOC_URL, params, "GvWf1cFY/Q7PnoempGyD5oXAezc=", "12345")).toBe(true);
    expect(await verifyTwilioSignature(DOC_URL, params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", "12345")).toBe(false);
    expect(await verifyTwilioSignature(DOC_URL, DOC_PARAMS, "GvWf1cFY/Q7PnoempGyD5oXAezc=", "12345")).toBe(
      false,
    );
  });

  it("refuses the example under another token, URL or parameter value", async () => {
    const signature = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";
    expect(await verifyTwilioSignature(DOC_URL, DOC_PARAMS, signature, "12346")).toBe(false);
    expect(await verifyTwilioSignature(`${DOC_URL}&baz=3`, DOC_PARAMS, signature, "12345")).toBe(false);
    expect(
      await verifyTwilioSignature(DOC_URL.replace("https:", "http:"), DOC_PARAMS, signature, "12345"),
    ).toBe(false);
    expect(await verifyTwilioSignature(DOC_URL, { ...DOC_PARAMS, Digits: "1235" }, signature, "12345")).toBe(
      false,
    );
    expect(await verifyTwilioSignature(DOC_URL, { ...DOC_PARAMS, Extra: "" }, signature, "12345")).toBe(
      false,
    );
  });

  it("accepts a fixture's body signed with the test token, from its pairs or its object", async () => {
    for (const body of [sms, mms, unicode, whatsapp, whatsappLocation]) {
      const signature = await twilioSignature(AUTH_TOKEN, documentedString(WEBHOOK_URL, pairsOf(body)));
      expect(await verifyTwilioSignature(WEBHOOK_URL, pairsOf(body), signature, AUTH_TOKEN)).toBe(true);
      const object = Object.fromEntries(new URLSearchParams(body));
      expect(await verifyTwilioSignature(WEBHOOK_URL, object, signature, AUTH_TOKEN)).toBe(true);
      expect(await verifyTwilioSignature(WEBHOOK_URL, pairsOf(body), signature, "another-token")).toBe(false);
    }
  });

  it("refuses a body with one byte changed", async () => {
    const signature = await twilioSignature(AUTH_TOKEN, documentedString(WEBHOOK_URL, pairsOf(unicode)));
    const bytes = encoder.encode(unicode);
    const at = unicode.indexOf("Merci");
    const tampered = bytes.slice();
    tampered[at] = tampered[at]! ^ 0x20;
    const body = new TextDecoder().decode(tampered);
    expect(body).toContain("merci");
    expect(await verifyTwilioSignature(WEBHOOK_URL, pairsOf(body), signature, AUTH_TOKEN)).toBe(false);
  });

  it("refuses a missing or malformed header", async () => {
    const signature = await twilioSignature(AUTH_TOKEN, documentedString(WEBHOOK_URL, pairsOf(sms)));
    expect(signature).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    const unpadded = signature.slice(0, -1);
    for (const bad of [
      undefined,
      "",
      unpadded,
      `${signature} `,
      ` ${signature}`,
      `${signature}${signature}`,
      btoa("x".repeat(19)),
      btoa("x".repeat(32)),
      "not base64 at all!",
      `sha1=${signature}`,
    ]) {
      expect(await verifyTwilioSignature(WEBHOOK_URL, pairsOf(sms), bad, AUTH_TOKEN), String(bad)).toBe(
        false,
      );
    }
  });

  it("refuses everything under an empty token", async () => {
    const signature = await twilioSignature(AUTH_TOKEN, documentedString(WEBHOOK_URL, pairsOf(sms)));
    expect(await verifyTwilioSignature(WEBHOOK_URL, pairsOf(sms), signature, "")).toBe(false);
  });
});

describe("signedParams: Twilio's parameter order", () => {
  it("sorts names case-sensitively, by code unit, whatever order they came in", () => {
    const pairs: [string, string][] = [
      ["body", "lower"],
      ["To", "+442079460958"],
      ["From", "+14155552671"],
      ["Body", "Upper"],
      ["MediaUrl10", "k"],
      ["MediaUrl2", "c"],
    ];
    const expected = "BodyUpperFrom+14155552671MediaUrl10kMediaUrl2cTo+442079460958bodylower";
    expect(signedParams(pairs)).toBe(expected);
    expect(signedParams([...pairs].reverse())).toBe(expected);
    expect(signedParams(Object.fromEntries(pairs))).toBe(expected);
  });

  it("writes a repeated name once per distinct value, the values sorted", async () => {
    const pairs: [string, string][] = [
      ["b", "2"],
      ["a", "y"],
      ["a", "x"],
      ["a", "y"],
    ];
    expect(signedParams(pairs)).toBe("axayb2");
    const url = "https://example.com/sms";
    const signature = await twilioSignature(AUTH_TOKEN, `${url}axayb2`);
    expect(await verifyTwilioSignature(url, pairs, signature, AUTH_TOKEN)).toBe(true);
    expect(
      await verifyTwilioSignature(
        url,
        [
          ["b", "2"],
          ["a", "y"],
        ],
        signature,
        AUTH_TOKEN,
      ),
    ).toBe(false);
  });

  it("keeps values as sent: no trimming, no decoding", () => {
    expect(signedParams({ Body: " a+b%20 " })).toBe("Body a+b%20 ");
    expect(signedParams({})).toBe("");
  });
});

describe("verifyTwilioSignature: the URL forms Twilio may have signed", () => {
  const params = pairsOf(sms);

  async function signedOver(url: string): Promise<string> {
    return twilioSignature(AUTH_TOKEN, documentedString(url, params));
  }

  it("lists the URL as received, then without its port and with the standard port", () => {
    expect(twilioSignatureUrls("https://example.com/sms?x=1")).toEqual([
      "https://example.com/sms?x=1",
      "https://example.com:443/sms?x=1",
    ]);
    expect(twilioSignatureUrls("https://example.com:443/sms")).toEqual([
      "https://example.com:443/sms",
      "https://example.com/sms",
    ]);
    expect(twilioSignatureUrls("http://example.com:8080/sms?q=it's")).toEqual([
      "http://example.com:8080/sms?q=it's",
      "http://example.com/sms?q=it%27s",
      "http://example.com:8080/sms?q=it%27s",
      "http://example.com/sms?q=it's",
    ]);
    expect(twilioSignatureUrls("not a url")).toEqual(["not a url"]);
  });

  it("accepts a signature over the URL with :443 when the request named no port, and the other way", async () => {
    expect(
      await verifyTwilioSignature(
        WEBHOOK_URL,
        params,
        await signedOver(WEBHOOK_URL.replace(".example/", ".example:443/")),
        AUTH_TOKEN,
      ),
    ).toBe(true);
    expect(
      await verifyTwilioSignature(
        WEBHOOK_URL.replace(".example/", ".example:443/"),
        params,
        await signedOver(WEBHOOK_URL),
        AUTH_TOKEN,
      ),
    ).toBe(true);
  });

  it("the same for :80 over http", async () => {
    const url = "http://sms.gallery.example/twilio";
    expect(
      await verifyTwilioSignature(
        url,
        params,
        await signedOver("http://sms.gallery.example:80/twilio"),
        AUTH_TOKEN,
      ),
    ).toBe(true);
    expect(
      await verifyTwilioSignature(
        "http://sms.gallery.example:80/twilio",
        params,
        await signedOver(url),
        AUTH_TOKEN,
      ),
    ).toBe(true);
  });

  it("a port of its own: with it, or without it", async () => {
    const url = "https://sms.gallery.example:8443/twilio";
    expect(await verifyTwilioSignature(url, params, await signedOver(url), AUTH_TOKEN)).toBe(true);
    expect(
      await verifyTwilioSignature(
        url,
        params,
        await signedOver("https://sms.gallery.example/twilio"),
        AUTH_TOKEN,
      ),
    ).toBe(true);
    expect(
      await verifyTwilioSignature(
        url,
        params,
        await signedOver("https://sms.gallery.example:9443/twilio"),
        AUTH_TOKEN,
      ),
    ).toBe(false);
  });

  it("a quote in the query string, escaped or not on either side (twilio-node's cases)", async () => {
    const plain = "https://example.com/path?test=param'WithQuote";
    const escaped = "https://example.com/path?test=param%27WithQuote";
    for (const signed of [plain, escaped]) {
      for (const requested of [plain, escaped]) {
        expect(await verifyTwilioSignature(requested, params, await signedOver(signed), AUTH_TOKEN)).toBe(
          true,
        );
      }
    }
  });

  it("refuses a signature over another URL", async () => {
    const signature = await signedOver("https://example.com/path?test=param");
    for (const url of [
      "https://example.com/path?test=param2",
      "https://example.com/path2?test=param",
      "http://example.com/path?test=param",
      "https://example.org/path?test=param",
      "https://example.com/path",
    ]) {
      expect(await verifyTwilioSignature(url, params, signature, AUTH_TOKEN), url).toBe(false);
    }
  });
});

describe("TwilioInboundMessage: the form parameters' schema", () => {
  it("accepts every fixture", () => {
    for (const body of [sms, mms, unicode, whatsapp, whatsappLocation]) {
      expect(TwilioInboundMessage.safeParse(Object.fromEntries(new URLSearchParams(body))).success).toBe(
        true,
      );
    }
  });

  it("allows parameters Twilio adds", () => {
    const params = TwilioInboundMessage.parse({
      ...Object.fromEntries(new URLSearchParams(sms)),
      NewThing: "1",
    });
    expect(params.NewThing).toBe("1");
  });

  it("refuses what it cannot read", () => {
    const base = Object.fromEntries(new URLSearchParams(mms));
    const cases: [string, Record<string, string | undefined>][] = [
      ["no MessageSid", { MessageSid: undefined }],
      ["a MessageSid that is not one", { MessageSid: "SM123" }],
      ["an AccountSid that is not one", { AccountSid: "MG2f8d6b4a0c9e7f5d3b1a8c6e4d2f0b9a" }],
      ["no From", { From: undefined }],
      ["an empty To", { To: "" }],
      ["a second medium announced but missing", { MediaUrl1: undefined }],
      ["a medium without its type", { MediaContentType0: undefined }],
      ["a count that is not one", { NumMedia: "two" }],
      ["more media than an MMS holds", { NumMedia: "11" }],
    ];
    for (const [name, change] of cases) {
      const params: Record<string, string> = { ...base };
      for (const [key, value] of Object.entries(change)) {
        if (value === undefined) delete params[key];
        else params[key] = value;
      }
      expect(TwilioInboundMessage.safeParse(params).success, name).toBe(false);
    }
  });
});

describe("parseTwilioMessage", () => {
  const common = {
    replyTo: [],
    direction: "inbound",
    to: ["+442079460958"],
    subject: null,
    sentAt: "2026-03-14T09:26:53.589Z",
    authentication: null,
    forwardedBy: null,
  } as const;

  it("an SMS", () => {
    expect(parseTwilioMessage(paramsOf(sms), RECEIVED_AT)).toEqual({
      ...common,
      providerMessageId: "SM9a4e2c7d1b8f3a6e0c5d9b2f7a4e1c83",
      providerThreadId: "+14155552671",
      from: { address: "+14155552671", name: null },
      body: "Hello, is the Hockney print in the window still available? What's the price?",
      attachments: [],
    });
  });

  it("an MMS with two media: each an attachment with its URL and type", () => {
    expect(parseTwilioMessage(paramsOf(mms), RECEIVED_AT)).toEqual({
      ...common,
      providerMessageId: "MM3c1f7e9a5d2b8c4f6a0e3d7b1c9f5a2e",
      providerThreadId: "+14155552671",
      from: { address: "+14155552671", name: null },
      body: "The two framed works from the fair",
      attachments: [
        {
          filename: null,
          contentType: "image/jpeg",
          size: null,
          url: "https://api.twilio.com/2010-04-01/Accounts/AC7c3e5b2a9d0f4e6c8b1a2d3e4f5a6b7c/Messages/MM3c1f7e9a5d2b8c4f6a0e3d7b1c9f5a2e/Media/ME5e1a9c3f7b2d8e4a6c0f9b3d1e7a5c2f",
        },
        {
          filename: null,
          contentType: "image/png",
          size: null,
          url: "https://api.twilio.com/2010-04-01/Accounts/AC7c3e5b2a9d0f4e6c8b1a2d3e4f5a6b7c/Messages/MM3c1f7e9a5d2b8c4f6a0e3d7b1c9f5a2e/Media/ME8b4d2f6a0c9e3b7d1f5a8c2e6b0d4f9a",
        },
      ],
    });
  });

  it("an MMS without text, a media type with parameters", () => {
    const params = paramsOf(mms);
    const message = parseTwilioMessage(
      { ...params, Body: "", NumMedia: "1", MediaContentType0: "Video/MP4; codecs=avc1" },
      RECEIVED_AT,
    );
    expect(message.body).toBe("");
    expect(message.attachments.map((a) => a.contentType)).toEqual(["video/mp4"]);
  });

  it("a long unicode text, as sent in two segments", () => {
    const params = paramsOf(unicode);
    expect(params.NumSegments).toBe("2");
    expect(parseTwilioMessage(params, RECEIVED_AT)).toEqual({
      ...common,
      providerMessageId: "SM6d0b8f2a4c7e1d9b3f5a8c0e2d6b4f1a",
      providerThreadId: "+33612345678",
      from: { address: "+33612345678", name: null },
      body: "Bonjour ! J'ai adoré l'exposition 🎨 — la toile « Nocturne n°3 » est-elle encore disponible ? Merci 🙏",
      attachments: [],
    });
  });

  it("a WhatsApp message through Twilio: whatsapp: dropped, the profile name, the message it replies to", () => {
    expect(parseTwilioMessage(paramsOf(whatsapp), RECEIVED_AT)).toEqual({
      ...common,
      providerMessageId: "SM2e8c4a6f0d3b9e1c7a5f2d8b4e0c6a3f",
      providerThreadId: "+16505551234",
      replyTo: ["SM7f1d3b5a9c2e6f0a4d8b2c6e0f4a8d1b"],
      from: { address: "+16505551234", name: "Sheena Nelson" },
      body: "Yes, Thursday works for the viewing.",
      attachments: [],
    });
  });

  it("a WhatsApp location through Twilio reads as the WhatsApp connector writes one", () => {
    expect(parseTwilioMessage(paramsOf(whatsappLocation), RECEIVED_AT)).toEqual({
      ...common,
      providerMessageId: "SM4b0f6d2a8e5c1b7f3d9a6e2c8f4b0d7e",
      providerThreadId: "+16505551234",
      from: { address: "+16505551234", name: "Sheena Nelson" },
      body: "📍 Tate Modern, Bankside, London SE1 9TG (51.507595, -0.099356)",
      attachments: [],
    });
  });

  it("a sender that is no international number (a short code) is kept as written", () => {
    const message = parseTwilioMessage({ ...paramsOf(sms), From: "72345" }, RECEIVED_AT);
    expect(message.from).toEqual({ address: "72345", name: null });
    expect(message.providerThreadId).toBe("72345");
  });
});

describe("EMPTY_TWIML", () => {
  it("is TwiML that sends nothing back", () => {
    expect(EMPTY_TWIML).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });
});
