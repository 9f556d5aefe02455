import { describe, expect, it } from "vitest";
import { EMAIL_MAX_BYTES, type ParseEmailOptions, parseEmail, subjectKey } from "../../lib/connectors/email";
import { parseAuthenticationResults } from "../../lib/connectors/email-auth";
import { recoverForward } from "../../lib/connectors/email-forward";
import { hex } from "../../lib/crypto";
import appleForward from "./fixtures/email/apple-forward.eml?raw";
import becky from "./fixtures/email/becky-iso-2022-jp.eml?raw";
import foxmail from "./fixtures/email/foxmail-gbk.eml?raw";
import gmailAttachments from "./fixtures/email/gmail-attachments.eml?raw";
import gmailEnquiry from "./fixtures/email/gmail-enquiry.eml?raw";
import gmailForward from "./fixtures/email/gmail-forward.eml?raw";
import gmailReply from "./fixtures/email/gmail-reply.eml?raw";
import outlookGerman from "./fixtures/email/outlook-de-latin1.eml?raw";
import outlookAttached from "./fixtures/email/outlook-forward-attached.eml?raw";
import outlookFrench from "./fixtures/email/outlook-forward-fr.eml?raw";
import outlookHtml from "./fixtures/email/outlook-html.eml?raw";
import phoneShiftJis from "./fixtures/email/phone-shift-jis.eml?raw";
import spoof from "./fixtures/email/spoof-dmarc-fail.eml?raw";

/**
 * The email connector's parsing (lib/connectors/email.ts), inside workerd as the Email Worker runs it: messages as
 * Gmail, Outlook, Apple Mail, Becky!, a Japanese phone and Foxmail write them (test/connectors/fixtures/email/),
 * each read into the inbox's one message shape, every decoded character checked.
 */

/** The gallery's own addresses: the inbox and the members who forward into it. */
const OWN = [
  "desk@gallery.example",
  "Mira.Okafor@gallery.example",
  "claire.moreau@gallery.example",
  "jonas.keller@gallery.example",
  "lena.fischer@gallery.example",
];
const ENVELOPE = { from: "bounces+srs=x@mx.example", to: "desk@gallery.example" };
const encoder = new TextEncoder();

/** A fixture's bytes: the files are 7-bit, so their text is their bytes. */
function bytes(fixture: string): Uint8Array {
  return encoder.encode(fixture);
}

function parse(fixture: string, options: Partial<ParseEmailOptions> = {}) {
  return parseEmail(bytes(fixture), ENVELOPE, { ownAddresses: OWN, ...options });
}

const PASS = { spf: "pass", dkim: "pass", dmarc: "pass", failed: false };

describe("workerd's TextDecoder", () => {
  // What postal-mime decodes bodies and encoded words with; measured here, in the runtime the Email Worker runs in.
  it.each([
    ["utf-8", "utf-8"],
    ["iso-2022-jp", "iso-2022-jp"],
    ["shift_jis", "shift_jis"],
    ["windows-31j", "shift_jis"],
    ["euc-jp", "euc-jp"],
    ["gb2312", "gbk"],
    ["gbk", "gbk"],
    ["gb18030", "gb18030"],
    ["big5", "big5"],
    ["euc-kr", "euc-kr"],
    ["ks_c_5601-1987", "euc-kr"],
    ["iso-8859-1", "windows-1252"],
    ["iso-8859-2", "iso-8859-2"],
    ["iso-8859-5", "iso-8859-5"],
    ["iso-8859-7", "iso-8859-7"],
    ["iso-8859-15", "iso-8859-15"],
    ["windows-1250", "windows-1250"],
    ["windows-1251", "windows-1251"],
    ["windows-1252", "windows-1252"],
    ["windows-1253", "windows-1253"],
    ["windows-1254", "windows-1254"],
    ["windows-1256", "windows-1256"],
    ["koi8-r", "koi8-r"],
    ["tis-620", "windows-874"],
  ])("knows %s (as %s)", (label, encoding) => {
    expect(new TextDecoder(label).encoding).toBe(encoding);
  });

  it.each([
    ["iso-2022-jp", [0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42], "日本"],
    ["shift_jis", [0x93, 0xfa, 0x96, 0x7b, 0x87, 0x40, 0xfb, 0xfc], "日本①髙"],
    ["gbk", [0xd6, 0xd0, 0xce, 0xc4, 0x86, 0xb4], "中文喆"],
    ["big5", [0xa4, 0xa4, 0xa4, 0xe5], "中文"],
    ["euc-kr", [0xc7, 0xd1, 0xb1, 0xdb], "한글"],
    ["windows-1252", [0x80, 0x93, 0x47, 0x72, 0xfc, 0xdf, 0x94], "€“Grüß”"],
    ["iso-8859-2", [0xb3, 0xf3, 0x64, 0xbc], "łódź"],
    ["windows-1251", [0xcc, 0xee, 0xf1, 0xea, 0xe2, 0xe0], "Москва"],
  ])("decodes %s exactly", (label, input, text) => {
    expect(new TextDecoder(label).decode(new Uint8Array(input))).toBe(text);
  });
});

describe("parseEmail: clients and charsets", () => {
  it("Gmail: multipart/alternative read by its text part, UTF-8 quoted-printable, an encoded subject", async () => {
    expect(await parse(gmailEnquiry)).toEqual({
      providerMessageId: "CAH7mL0q3Yd5x0u1Rk2fJm0d9Zc8VJXb0uQq8u1mT4s6hY7p2Lw@mail.gmail.com",
      providerThreadId: null,
      replyTo: [],
      direction: "inbound",
      from: { address: "sophie.marchetti@gmail.com", name: "Sophie Marchetti" },
      to: ["desk@gallery.example"],
      subject: "Enquiry about “Harbour at Dusk” — availability & price",
      body:
        "Dear Gallery team,\n\nI saw “Harbour at Dusk” by Elin Solberg at your stand in Basel last week — is it still " +
        "available? Could you send me the price and a condition report?\n\nI am also curious about the smaller studies " +
        "(oil on panel, c. 30 × 40 cm).\n\nBest regards,\nSophie Marchetti",
      sentAt: "2025-06-02T07:14:03.000Z",
      attachments: [],
      authentication: PASS,
      forwardedBy: null,
    });
  });

  it("Gmail reply: In-Reply-To then References nearest first; signature and quoted history kept; To then Cc", async () => {
    const message = await parse(gmailReply);
    expect(message.replyTo).toEqual([
      "20250603091200.4F2A1C0B7E@gallery.example",
      "CAH7mL0rXk2pT9v3Qm8zJw5nB1cD4eF6gH8iJ0kL2mN4oP6q@mail.gmail.com",
      "20250602140501.7C1D2E0A11@gallery.example",
      "CAH7mL0q3Yd5x0u1Rk2fJm0d9Zc8VJXb0uQq8u1mT4s6hY7p2Lw@mail.gmail.com",
    ]);
    expect(message.providerMessageId).toBe(
      "CAH7mL0s8Vn2Wq4Xr6Yt8Zu0Av2Bw4Cx6Dy8Ez0Fa2Gb4Hc6Id@mail.gmail.com",
    );
    expect(message.subject).toBe("Re: Enquiry about “Harbour at Dusk” — availability & price");
    expect(message.to).toEqual(["desk@gallery.example", "luca.marchetti@gmail.com"]);
    expect(message.direction).toBe("inbound");
    expect(message.sentAt).toBe("2025-06-04T08:30:09.000Z");
    expect(message.body).toBe(
      [
        "Thank you, the condition report is very helpful. We would like to reserve it until Friday, if that is possible.",
        "",
        "Sophie",
        "",
        "-- ",
        "Sophie Marchetti",
        "Via dei Coronari 12, Roma",
        "+39 06 1234 5678",
        "",
        "On Tue, 3 Jun 2025 at 11:12, Gallery Desk <desk@gallery.example> wrote:",
        "",
        "> Dear Ms Marchetti,",
        ">",
        "> Please find the condition report attached. The work is available at",
        "> EUR 18,500.",
        ">",
        "> Kind regards,",
        "> The Gallery",
        ">",
        "> On Mon, 2 Jun 2025 at 16:05, Sophie Marchetti <sophie.marchetti@gmail.com>",
        "> wrote:",
        ">",
        ">> Many thanks. Could you also tell me about the frame?",
        ">>",
      ].join("\n"),
    );
  });

  it("Outlook (Microsoft 365), HTML only: Word's markup turned into text; the topmost Authentication-Results", async () => {
    const message = await parse(outlookHtml);
    expect(message.body).toBe(
      "Dear all,\n\nWould Thursday at 2pm suit for a viewing? I would like to see the two Solberg works from the " +
        "catalogue – nos. 14 and 17 – and discuss the price (my budget is around £20,000).\n\nBest wishes,\n\nEleanor" +
        "\n\nDr Eleanor Whitfield\n\nWhitfield Collection | London",
    );
    expect(message.from).toEqual({
      address: "e.whitfield@whitfield-collection.co.uk",
      name: "Whitfield, Eleanor",
    });
    expect(message.to).toEqual(["desk@gallery.example"]);
    expect(message.subject).toBe("Viewing on Thursday");
    expect(message.providerMessageId).toBe(
      "LO2P265MB5678A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6@LO2P265MB5678.GBRP265.PROD.OUTLOOK.COM",
    );
    expect(message.sentAt).toBe("2025-06-03T08:41:27.000Z");
    // The sender's tenant wrote `dkim=none; dmarc=none` further down; the receiving server's verdicts count.
    expect(message.authentication).toEqual(PASS);
  });

  it("Outlook (German): ISO-8859-1 quoted-printable body and Q-encoded subject", async () => {
    const message = await parse(outlookGerman);
    expect(message.subject).toBe("Anfrage zum Gemälde »Spätsommer«");
    expect(message.body).toBe(
      "Sehr geehrte Damen und Herren,\n\nich interessiere mich für das Gemälde »Spätsommer« von Elin Solberg, das ich " +
        "in Ihrem Katalog gesehen habe. Könnten Sie mir den Preis nennen? Mein Budget liegt bei etwa 15.000 EUR.\n\n" +
        "Außerdem würde ich gern wissen, ob eine Besichtigung in Ihrer Galerie möglich ist.\n\nMit freundlichen Grüßen" +
        "\nDr. Klaus Becker",
    );
    expect(message.from).toEqual({ address: "k.becker@becker-kunst.de", name: "Dr. Klaus Becker" });
    expect(message.to).toEqual([
      "desk@gallery.example",
      "assistenz@becker-kunst.de",
      "k.becker@becker-kunst.de",
    ]);
    expect(message.authentication).toEqual({ spf: "pass", dkim: "none", dmarc: "none", failed: false });
  });

  it("Becky! (Japanese): ISO-2022-JP subject, display name and body", async () => {
    const message = await parse(becky);
    expect(message.subject).toBe("作品「夜の港」についてのお問い合わせ");
    expect(message.from).toEqual({ address: "taro.yamada@yamada-art.co.jp", name: "山田 太郎" });
    expect(message.body).toBe(
      "ギャラリーご担当者様\n\nはじめまして、山田と申します。\n先日のアートフェアで拝見した作品「夜の港」について、\n" +
        "価格と在庫状況を教えていただけますでしょうか。\n\nよろしくお願いいたします。\n\n--\n山田 太郎\n株式会社山田アート\n" +
        "taro.yamada@yamada-art.co.jp",
    );
    expect(message.providerMessageId).toBe("20250603102145.7D3E.A1B2C3D4@yamada-art.co.jp");
    expect(message.sentAt).toBe("2025-06-03T01:21:45.000Z");
  });

  it("a Japanese phone: Shift_JIS in base64, Windows-31J characters (①, 髙) included", async () => {
    const message = await parse(phoneShiftJis);
    expect(message.subject).toBe("【ご質問】版画の額装について");
    expect(message.from).toEqual({ address: "hanako.takahashi@ezweb.ne.jp", name: "髙橋 花子" });
    expect(message.body).toBe(
      "ギャラリー御中\n\n版画「春の庭」の額装について質問です。\n① 額のサイズ\n② 送料（東京都内）\nを教えてください。\n\n髙橋 花子",
    );
  });

  it("Foxmail (Chinese): GB2312-labelled GBK in base64, an encoded word inside a quoted name", async () => {
    const message = await parse(foxmail);
    expect(message.subject).toBe("询价：水墨画《秋山图》");
    // 喆 is outside GB2312; Foxmail writes it in GBK under the GB2312 label, which WHATWG reads as GBK.
    expect(message.from).toEqual({ address: "wangzhe@163.com", name: "王喆" });
    expect(message.body).toBe(
      "您好！\n\n我在上海艺术博览会上看到了贵画廊展出的水墨画《秋山图》，请问这件作品是否还在售？价格是多少？能否寄送到北京？" +
        "\n\n谢谢！\n\n王喆",
    );
    expect(message.sentAt).toBe("2025-06-03T07:32:08.000Z");
  });

  it("attachments: the inline image and the PDF with their names, types, sizes and bytes; not the text parts", async () => {
    const message = await parse(gmailAttachments);
    expect(message.attachments.map(({ content, ...rest }) => rest)).toEqual([
      { filename: "image.png", contentType: "image/png", size: 186, disposition: "inline" },
      {
        filename: "Condition report – frame.pdf",
        contentType: "application/pdf",
        size: 624,
        disposition: "attachment",
      },
    ]);
    const [image, pdf] = message.attachments;
    expect([...image!.content!.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(new TextDecoder().decode(pdf!.content!.subarray(0, 8))).toBe("%PDF-1.4");
    expect(new TextDecoder().decode(pdf!.content!.subarray(-6))).toBe("%%EOF\n");
    expect(message.body).toBe(
      "Hello,\n\nThe frame of the Solberg print arrived with a crack in the lower left corner, see the photo:\n\n" +
        "[image: image.png]\n\nI attach the condition report from the courier. How shall we proceed?\n\nPriya",
    );
  });

  it("a spoof: DMARC fails at the receiving server, whatever the sender wrote below; no Message-ID", async () => {
    const message = await parse(spoof);
    expect(message.authentication).toEqual({ spf: "pass", dkim: "none", dmarc: "fail", failed: true });
    expect(message.from).toEqual({ address: "hans.weber@weber-sammlung.de", name: "Hans Weber" });
    expect(message.providerMessageId).toBe(
      "sha256:fa59e236b1fa82ff6457f7fd23230744aebf833bd24bd2ee111e9b615b413641",
    );
    const digest = hex(await crypto.subtle.digest("SHA-256", bytes(spoof)));
    expect(message.providerMessageId).toBe(`sha256:${digest}`);
  });
});

describe("parseEmail: forwards from the gallery's own addresses", () => {
  it("Gmail: the original sender and subject after “Forwarded message”; the whole text kept", async () => {
    const message = await parse(gmailForward);
    expect(message.direction).toBe("inbound");
    expect(message.from).toEqual({ address: "hans.weber@weber-sammlung.de", name: "Hans Weber" });
    expect(message.subject).toBe("Anfrage: Radierung „Nordlicht“");
    // Compared case-insensitively: OWN lists her as Mira.Okafor@…
    expect(message.forwardedBy).toBe("mira.okafor@gallery.example");
    expect(message.to).toEqual(["desk@gallery.example"]);
    expect(message.replyTo).toEqual(["7a1c2e4f-90b3-4d58-a6e2-3b9f0c1d7e55@weber-sammlung.de"]);
    expect(message.body).toBe(
      "Hans Weber from the Kunstmesse — please add him and send the condition report.\n\n" +
        "---------- Forwarded message ---------\nFrom: Hans Weber <hans.weber@weber-sammlung.de>\n" +
        "Date: Mon, Jun 2, 2025 at 9:14\u202fAM\nSubject: Anfrage: Radierung „Nordlicht“\nTo: <mira.okafor@gallery.example>" +
        "\n\n\nSehr geehrte Frau Okafor,\n\nvielen Dank für das Gespräch auf der Messe. Ist die Radierung „Nordlicht“ " +
        "(1998, Auflage 12/30) noch verfügbar? Über ein Angebot inklusive Versand nach München würde ich mich freuen." +
        "\n\nMit freundlichen Grüßen\nHans Weber",
    );
    expect(message.authentication).toEqual(PASS);
  });

  it("Outlook (French): De / Envoyé / À / Objet under a TR: subject, in windows-1252", async () => {
    const message = await parse(outlookFrench);
    expect(message.direction).toBe("inbound");
    expect(message.from).toEqual({ address: "jean.dupont@orange.fr", name: "Jean Dupont" });
    expect(message.subject).toBe("Demande de prix – « Le Port de Honfleur »");
    expect(message.forwardedBy).toBe("claire.moreau@gallery.example");
    expect(message.body).toBe(
      "Bonjour,\n\nUn collectionneur rencontré à la foire : pouvez-vous lui envoyer le prix et les frais d’envoi ?\n\n" +
        "Merci,\nClaire\n\n________________________________\nDe : Jean Dupont <jean.dupont@orange.fr>\n" +
        "Envoyé : lundi 2 juin 2025 09:14\nÀ : Claire Moreau <claire.moreau@gallery.example>\n" +
        "Objet : Demande de prix – « Le Port de Honfleur »\n\nMadame,\n\nJe souhaiterais connaître le prix de l’huile " +
        "« Le Port de Honfleur » (65 × 81 cm) ainsi que les frais de livraison à Lyon. Mon budget se situe autour de " +
        "12 000 €.\n\nBien cordialement,\nJean Dupont",
    );
  });

  it("Apple Mail: “Begin forwarded message:” with the forward quoted", async () => {
    const message = await parse(appleForward);
    expect(message.direction).toBe("inbound");
    expect(message.from).toEqual({ address: "mateo.garcia@icloud.com", name: "Mateo García" });
    expect(message.subject).toBe("Consulta sobre la escultura de bronce");
    expect(message.forwardedBy).toBe("lena.fischer@gallery.example");
    expect(message.body).toBe(
      "Un coleccionista de Madrid — can you send him the price list today?\n\nLena\n\n> Begin forwarded message:\n>\n" +
        "> From: Mateo García <mateo.garcia@icloud.com>\n> Subject: Consulta sobre la escultura de bronce\n" +
        "> Date: 2 June 2025 at 09:14:03 CEST\n> To: lena.fischer@gallery.example\n>\n> Hola Lena:\n>\n" +
        "> Me interesa mucho la escultura de bronce que vi en la feria. ¿Podría enviarme el precio y las dimensiones?\n" +
        ">\n> Un saludo,\n> Mateo\n>",
    );
  });

  it("Outlook, forwarded as an attachment: the attached message's sender; it stays an attachment, its text joins the body", async () => {
    const message = await parse(outlookAttached);
    expect(message.direction).toBe("inbound");
    expect(message.from).toEqual({ address: "rhale@halefoundation.org", name: "Robert Hale" });
    expect(message.subject).toBe("Loan request: two works for the autumn show");
    expect(message.forwardedBy).toBe("jonas.keller@gallery.example");
    expect(message.attachments.map(({ content, ...rest }) => rest)).toEqual([
      { filename: null, contentType: "message/rfc822", size: 988, disposition: "attachment" },
    ]);
    expect(new TextDecoder().decode(message.attachments[0]!.content!.subarray(0, 39))).toBe(
      "Return-Path: <RHale@halefoundation.org>",
    );
    expect(message.body).toBe(
      "Please log this loan request from the Hale Foundation; I said we would answer by Friday.\n\nJonas\n\n" +
        "---------- Forwarded message ---------\nFrom: Robert Hale <rhale@halefoundation.org>\n" +
        "Date: Tue, 3 Jun 2025 14:02:15 +0100\nSubject: Loan request: two works for the autumn show\n" +
        "To: jonas.keller@gallery.example\n\nDear Mr Keller,\n\nFollowing our conversation, the Hale Foundation would " +
        'like to borrow two works for its autumn show (12 September to 30 November): "Harbour at Dusk" and "Low ' +
        'Tide". We will cover transport and insurance nail to nail. Could you let me know whether the lenders would ' +
        "agree?\n\nWith best wishes,\nRobert Hale\nDirector, Hale Foundation",
    );
    // Read again from the body, the appended block names the same sender.
    expect(recoverForward(message.body, "Fwd: x")?.from).toEqual(message.from);
  });

  it("Outlook, HTML only: the block found in the converted text, the mailto link read past", async () => {
    const html = [
      '<html><body><div class="WordSection1"><p class="MsoNormal">See below.<o:p></o:p></p>',
      '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">',
      '<p class="MsoNormal"><b>From:</b> Jane Client &lt;<a href="mailto:Jane@Client.example">Jane@Client.example</a>&gt;<br>',
      "<b>Sent:</b> Monday, June 2, 2025 9:14 AM<br>",
      "<b>To:</b> Jonas Keller &lt;jonas.keller@gallery.example&gt;<br>",
      "<b>Subject:</b> Price list<o:p></o:p></p></div>",
      '<p class="MsoNormal">Hello, could you send the price list?<o:p></o:p></p></div></body></html>',
    ].join("\r\n");
    const raw = [
      "From: Jonas Keller <jonas.keller@gallery.example>",
      "To: desk@gallery.example",
      "Subject: FW: Price list",
      "Date: Mon, 2 Jun 2025 10:00:00 +0000",
      "Message-ID: <fw-html@gallery.example>",
      'Content-Type: text/html; charset="us-ascii"',
      "",
      html,
      "",
    ].join("\r\n");
    const message = await parseEmail(raw, ENVELOPE, { ownAddresses: OWN });
    expect(message.from).toEqual({ address: "jane@client.example", name: "Jane Client" });
    expect(message.subject).toBe("Price list");
    expect(message.direction).toBe("inbound");
    expect(message.body).toBe(
      "See below.\n\nFrom: Jane Client < (mailto:Jane@Client.example) Jane@Client.example>\n\n" +
        "Sent: Monday, June 2, 2025 9:14 AM\n\nTo: Jonas Keller <jonas.keller@gallery.example>\n\n" +
        "Subject: Price list\n\nHello, could you send the price list?",
    );
  });

  it("the gallery's own mail that forwards nothing is outbound; its counterpart is to[0]", async () => {
    const message = await parse(gmailEnquiry, { ownAddresses: ["SOPHIE.MARCHETTI@gmail.com"] });
    expect(message.direction).toBe("outbound");
    expect(message.from).toEqual({ address: "sophie.marchetti@gmail.com", name: "Sophie Marchetti" });
    expect(message.to[0]).toBe("desk@gallery.example");
    expect(message.forwardedBy).toBeNull();
    expect(message.subject).toBe("Enquiry about “Harbour at Dusk” — availability & price");
  });

  it("a member's reply quoting a forward, or Outlook's reply header block, stays outbound", async () => {
    const reply = (subject: string, body: string) =>
      [
        "From: Jonas Keller <jonas.keller@gallery.example>",
        "To: Jane Client <jane@client.example>",
        `Subject: ${subject}`,
        "Date: Tue, 3 Jun 2025 10:00:00 +0000",
        "Message-ID: <reply@gallery.example>",
        "Content-Type: text/plain; charset=utf-8",
        "",
        body,
        "",
      ].join("\r\n");
    const outlookReply = reply(
      "RE: Price list",
      "Here it is.\r\n\r\nFrom: Jane Client <jane@client.example>\r\nSent: Monday, June 2, 2025 9:14 AM\r\n" +
        "To: Jonas Keller <jonas.keller@gallery.example>\r\nSubject: Price list\r\n\r\nCould you send the price list?",
    );
    const quotedForward = reply(
      "Re: Fwd: Price list",
      "Done.\r\n\r\nOn Mon, 2 Jun 2025, Mira wrote:\r\n> ---------- Forwarded message ---------\r\n" +
        "> From: Jane Client <jane@client.example>\r\n> Subject: Price list",
    );
    const noPrefix = reply(
      "Price list",
      "Here it is.\r\n\r\nFrom: Jane Client <jane@client.example>\r\nSent: Monday, June 2, 2025 9:14 AM",
    );
    for (const raw of [outlookReply, quotedForward, noPrefix]) {
      const message = await parseEmail(raw, ENVELOPE, { ownAddresses: OWN });
      expect(message.direction).toBe("outbound");
      expect(message.from.address).toBe("jonas.keller@gallery.example");
      expect(message.forwardedBy).toBeNull();
      expect(message.to).toEqual(["jane@client.example"]);
    }
  });

  it("a client's mail holding a forwarded block is the client's: nothing recovered from a stranger's forward", async () => {
    const message = await parse(gmailForward, { ownAddresses: ["desk@gallery.example"] });
    expect(message.from).toEqual({ address: "mira.okafor@gallery.example", name: "Mira Okafor" });
    expect(message.subject).toBe("Fwd: Anfrage: Radierung „Nordlicht“");
    expect(message.forwardedBy).toBeNull();
    expect(message.direction).toBe("inbound");
  });
});

describe("recoverForward: the header block in the languages clients write", () => {
  const block = (lines: string[]) => `Please see below.\n\n${lines.join("\n")}\n\nThe original text.`;
  it.each([
    [
      "German Outlook",
      "WG: Anfrage",
      [
        "Von: Jane Client <jane@client.example>",
        "Gesendet: Montag, 2. Juni 2025 09:14",
        "An: Desk <desk@gallery.example>",
        "Betreff: Anfrage",
      ],
      "Anfrage",
    ],
    [
      "French Outlook",
      "TR: Demande",
      [
        "De : Jane Client <jane@client.example>",
        "Envoyé : lundi 2 juin 2025 09:14",
        "À : desk@gallery.example",
        "Objet : Demande",
      ],
      "Demande",
    ],
    [
      "Spanish Outlook",
      "RV: Consulta",
      [
        "De: Jane Client <jane@client.example>",
        "Enviado el: lunes, 2 de junio de 2025 9:14",
        "Para: desk@gallery.example",
        "Asunto: Consulta",
      ],
      "Consulta",
    ],
    [
      "Italian Outlook",
      "I: Richiesta",
      [
        "Da: Jane Client <jane@client.example>",
        "Inviato: lunedì 2 giugno 2025 09:14",
        "A: desk@gallery.example",
        "Oggetto: Richiesta",
      ],
      "Richiesta",
    ],
    [
      "Dutch Outlook",
      "FW: Vraag",
      [
        "Van: Jane Client <jane@client.example>",
        "Verzonden: maandag 2 juni 2025 09:14",
        "Aan: desk@gallery.example",
        "Onderwerp: Vraag",
      ],
      "Vraag",
    ],
    [
      "Japanese Outlook",
      "FW: お問い合わせ",
      [
        "差出人: Jane Client <jane@client.example>",
        "送信日時: 2025年6月2日 9:14",
        "宛先: desk@gallery.example",
        "件名: お問い合わせ",
      ],
      "お問い合わせ",
    ],
    [
      "Chinese Outlook",
      "转发: 询价",
      [
        "发件人: Jane Client <jane@client.example>",
        "发送时间: 2025年6月2日 9:14",
        "收件人: desk@gallery.example",
        "主题: 询价",
      ],
      "询价",
    ],
    [
      "Chinese, full-width colons",
      "转发：询价",
      [
        "发件人：Jane Client <jane@client.example>",
        "发送时间：2025年6月2日 9:14",
        "收件人：desk@gallery.example",
        "主题：询价",
      ],
      "询价",
    ],
    [
      "Korean Outlook",
      "전달: 문의",
      [
        "보낸 사람: Jane Client <jane@client.example>",
        "보낸 날짜: 2025년 6월 2일 월요일 오전 9:14",
        "받는 사람: desk@gallery.example",
        "제목: 문의",
      ],
      "문의",
    ],
    [
      "Portuguese Outlook",
      "ENC: Pedido",
      [
        "De: Jane Client <jane@client.example>",
        "Enviada em: segunda-feira, 2 de junho de 2025 09:14",
        "Para: desk@gallery.example",
        "Assunto: Pedido",
      ],
      "Pedido",
    ],
    [
      "Outlook desktop, plain text",
      "FW: Price list",
      [
        "-----Original Message-----",
        "From: Jane Client [mailto:Jane@Client.example]",
        "Sent: Monday, June 2, 2025 9:14 AM",
        "To: desk@gallery.example",
        "Subject: Price list",
      ],
      "Price list",
    ],
    [
      "Gmail, bold name",
      "Fwd: Price list",
      [
        "---------- Forwarded message ---------",
        "From: *Jane Client* <jane@client.example>",
        "Date: Mon, Jun 2, 2025 at 9:14 AM",
        "Subject: Price list",
        "To: <desk@gallery.example>",
      ],
      "Price list",
    ],
    [
      "Gmail, subject edited",
      "Jane's question",
      [
        "---------- Forwarded message ---------",
        "From: Jane Client <jane@client.example>",
        "Subject: Price list",
      ],
      "Price list",
    ],
    [
      "Gmail, German",
      "WG: Preisliste",
      [
        "---------- Weitergeleitete Nachricht ---------",
        "Von: Jane Client <jane@client.example>",
        "Date: Mo., 2. Juni 2025 um 09:14 Uhr",
        "Betreff: Preisliste",
      ],
      "Preisliste",
    ],
    [
      "Thunderbird",
      "Fwd: Price list",
      [
        "-------- Forwarded Message --------",
        "Subject: \tPrice list",
        "Date: \tMon, 2 Jun 2025 09:14:03 +0200",
        "From: \tJane Client <jane@client.example>",
        "To: \tdesk@gallery.example",
      ],
      "Price list",
    ],
    [
      "Apple Mail, French",
      "Tr: Demande",
      [
        "> Début du message réexpédié :",
        ">",
        "> De: Jane Client <jane@client.example>",
        "> Objet: Demande",
        "> Date: 2 juin 2025 à 09:14:03 UTC+2",
        "> À: desk@gallery.example",
      ],
      "Demande",
    ],
    [
      "Apple Mail, HTML part as text",
      "Fwd: Price list",
      [
        "Begin forwarded message:",
        "",
        "From: Jane Client <jane@client.example>",
        "",
        "Subject: Price list",
        "",
        "Date: 2 June 2025 at 09:14:03 CEST",
      ],
      "Price list",
    ],
  ])("%s", (_client, subject, lines, original) => {
    expect(recoverForward(block(lines), subject)).toEqual({
      from: { address: "jane@client.example", name: "Jane Client" },
      subject: original,
    });
  });

  it("a block without an address, or without a block, recovers nothing", () => {
    expect(recoverForward(block(["From: Jane Client", "Sent: Monday", "Subject: x"]), "FW: x")).toBeNull();
    expect(recoverForward("Just a note, nothing forwarded.", "Fwd: x")).toBeNull();
  });

  it("a sender named by address alone has no name; a block without a subject gives none", () => {
    expect(
      recoverForward(block(["---------- Forwarded message ---------", "From: <Jane@Client.example>"]), null),
    ).toEqual({
      from: { address: "jane@client.example", name: null },
      subject: null,
    });
  });
});

describe("parseEmail: inputs and fallbacks", () => {
  const minimal = (headers: string[], body = "Hello.") =>
    [...headers, "Content-Type: text/plain; charset=utf-8", "", body, ""].join("\r\n");

  it("a string, an ArrayBuffer, a Uint8Array and a stream are read alike", async () => {
    const expected = await parse(becky);
    const data = bytes(becky);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < data.length; i += 1000) controller.enqueue(data.slice(i, i + 1000));
        controller.close();
      },
    });
    const inputs = [becky, data.slice().buffer, data, stream];
    for (const input of inputs) {
      expect(await parseEmail(input, ENVELOPE, { ownAddresses: OWN })).toEqual(expected);
    }
  });

  it("a message larger than EMAIL_MAX_BYTES (25 MiB) is refused, a stream as soon as it passes the bound", async () => {
    expect(EMAIL_MAX_BYTES).toBe(25 * 1024 * 1024);
    await expect(
      parseEmail(new Uint8Array(EMAIL_MAX_BYTES + 1), ENVELOPE, { ownAddresses: OWN }),
    ).rejects.toThrow(RangeError);
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(1024 * 1024);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(parseEmail(endless, ENVELOPE, { ownAddresses: OWN })).rejects.toThrow(/EMAIL_MAX_BYTES/);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(27);
  });

  it("no Message-ID: the SHA-256 of the bytes, the same on a replay, another for other bytes", async () => {
    const raw = minimal(["From: a@client.example", "To: desk@gallery.example", "Subject: x"]);
    const first = await parseEmail(raw, ENVELOPE, { ownAddresses: OWN });
    const again = await parseEmail(bytes(raw), ENVELOPE, { ownAddresses: OWN });
    const other = await parseEmail(`${raw} `, ENVELOPE, { ownAddresses: OWN });
    expect(first.providerMessageId).toBe(`sha256:${hex(await crypto.subtle.digest("SHA-256", bytes(raw)))}`);
    expect(first.providerMessageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(again.providerMessageId).toBe(first.providerMessageId);
    expect(other.providerMessageId).not.toBe(first.providerMessageId);
  });

  it("Date missing or unreadable: receivedAt, else the time of parsing", async () => {
    const receivedAt = "2025-06-05T10:00:00+02:00";
    const noDate = minimal(["From: a@client.example", "To: desk@gallery.example"]);
    const badDate = minimal([
      "From: a@client.example",
      "Date: sometime next week",
      "To: desk@gallery.example",
    ]);
    expect((await parseEmail(noDate, ENVELOPE, { ownAddresses: OWN, receivedAt })).sentAt).toBe(
      "2025-06-05T08:00:00.000Z",
    );
    expect((await parseEmail(badDate, ENVELOPE, { ownAddresses: OWN, receivedAt })).sentAt).toBe(
      "2025-06-05T08:00:00.000Z",
    );
    const before = Date.now();
    const sentAt = (await parseEmail(noDate, ENVELOPE, { ownAddresses: OWN })).sentAt;
    expect(Date.parse(sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(sentAt)).toBeLessThanOrEqual(Date.now());
  });

  it("no From, To or Cc: the envelope's; an empty subject is null; no Authentication-Results is null", async () => {
    const message = await parseEmail(minimal(["Subject:   "], "Hi  \r\n\r\n  "), ENVELOPE, {
      ownAddresses: OWN,
    });
    expect(message.from).toEqual({ address: "bounces+srs=x@mx.example", name: null });
    expect(message.to).toEqual(["desk@gallery.example"]);
    expect(message.subject).toBeNull();
    expect(message.authentication).toBeNull();
    expect(message.body).toBe("Hi");
  });

  it("the body keeps leading indentation and inner blank lines; only trailing whitespace is cut", async () => {
    const message = await parseEmail(
      minimal(
        ["From: a@client.example", "To: desk@gallery.example"],
        "  Indented\r\n\r\n\r\nlast line  \r\n\r\n",
      ),
      ENVELOPE,
      { ownAddresses: OWN },
    );
    expect(message.body).toBe("  Indented\n\n\nlast line");
  });

  it("angle brackets stripped and ids deduplicated; a group's members read as recipients", async () => {
    const message = await parseEmail(
      minimal([
        "From: a@client.example",
        "To: Team: B@Client.example, c@client.example;, b@client.example",
        "Cc: undisclosed-recipients:;",
        "Message-ID:  <abc@client.example> ",
        "In-Reply-To: <p2@client.example> (message of Monday)",
        "References: <p0@client.example> <p1@client.example>\r\n <p2@client.example>",
      ]),
      ENVELOPE,
      { ownAddresses: OWN },
    );
    expect(message.providerMessageId).toBe("abc@client.example");
    expect(message.replyTo).toEqual(["p2@client.example", "p1@client.example", "p0@client.example"]);
    expect(message.to).toEqual(["b@client.example", "c@client.example"]);
  });
});

describe("subjectKey", () => {
  it.each([
    ["Re: Enquiry", "enquiry"],
    ["RE: RE: Fwd:  Enquiry   about\tthe  work", "enquiry about the work"],
    ["Fw: FW: fwd: Enquiry", "enquiry"],
    ["AW: WG: Anfrage zum Gemälde »Spätsommer«", "anfrage zum gemälde »spätsommer«"],
    ["SV: VS: Antw: Vraag", "vraag"],
    ["TR : RE : Demande de prix", "demande de prix"],
    ["RV: Consulta", "consulta"],
    ["R: RIF: I: Richiesta", "richiesta"],
    ["Enc: ENC: Pedido", "pedido"],
    ["Odp: PD: Zapytanie", "zapytanie"],
    ["YNT: İLT: Soru", "soru"],
    ["ΑΠ: ΣΧΕΤ: Ερώτηση", "ερώτηση"],
    ["Απ: Ερώτηση", "ερώτηση"],
    ["回复：转发：询价", "询价"],
    ["答复: 回覆: 轉寄: 询价", "询价"],
    ["返信: 転送: お問い合わせ", "お問い合わせ"],
    ["회신: 답장: 전달: 문의", "문의"],
    ["Re[2]: Re(3): Enquiry", "enquiry"],
    ["RE [2] : Enquiry", "enquiry"],
    ["Re:Re:Enquiry", "enquiry"],
    ["Re: 作品「夜の港」について", "作品「夜の港」について"],
    ["Regarding: the Solberg", "regarding: the solberg"],
    ["Invitation: the opening", "invitation: the opening"],
    ["Fwd:", null],
    ["Re: Re:   ", null],
    ["", null],
    [null, null],
  ])("%j → %j", (subject, key) => {
    expect(subjectKey(subject)).toBe(key);
  });
});

describe("parseAuthenticationResults", () => {
  it.each([
    [
      "Microsoft 365 (no authserv-id), upper-case verdicts",
      "spf=Pass (sender IP is 40.107.11.98) smtp.mailfrom=a.example; dkim=PASS (signature was verified) header.d=a.example;dmarc=pass action=none header.from=a.example;compauth=pass reason=100",
      { spf: "pass", dkim: "pass", dmarc: "pass", failed: false },
    ],
    [
      "Gmail's comments, the first DKIM result of two",
      "mx.google.com; dkim=fail header.i=@a.example header.s=s1 header.b=x; dkim=pass header.i=@esp.example; spf=softfail (google.com: domain of transitioning b@a.example does not designate 1.2.3.4 as permitted sender; see https://x) smtp.mailfrom=b@a.example; dmarc=fail (p=REJECT sp=REJECT dis=NONE) header.from=a.example",
      { spf: "softfail", dkim: "fail", dmarc: "fail", failed: true },
    ],
    [
      "SPF and DKIM both not passing, no DMARC",
      "mx.example; spf=fail smtp.mailfrom=a.example; dkim=neutral (no key) header.d=a.example",
      { spf: "fail", dkim: "neutral", dmarc: null, failed: true },
    ],
    [
      "SPF fails, DKIM passes: not failed",
      "mx.example; spf=fail smtp.mailfrom=a.example; dkim=pass header.d=a.example; dmarc=pass",
      { spf: "fail", dkim: "pass", dmarc: "pass", failed: false },
    ],
    [
      "only SPF reported, and failing: failed (no DKIM signature passed either)",
      "mx.example 1; spf=fail smtp.mailfrom=a.example",
      { spf: "fail", dkim: null, dmarc: null, failed: true },
    ],
    [
      "a domain that publishes nothing: not failed",
      "mx.example; spf=none smtp.mailfrom=a.example; dkim=none; dmarc=none",
      { spf: "none", dkim: "none", dmarc: "none", failed: false },
    ],
    [
      "a method version, a quoted reason with parentheses and a semicolon, a nested comment",
      'mx.example; dkim/1=pass (good (really)) header.d=a.example; dmarc=fail reason="not aligned (relaxed); no DKIM" header.from=b.example; spf=none',
      { spf: "none", dkim: "pass", dmarc: "fail", failed: true },
    ],
    ["no results", "mx.example; none", { spf: null, dkim: null, dmarc: null, failed: false }],
  ])("%s", (_case, header, verdicts) => {
    expect(parseAuthenticationResults([header])).toEqual(verdicts);
  });

  it("the topmost header counts; none at all is null", () => {
    expect(
      parseAuthenticationResults([
        "mx.example; dmarc=fail header.from=a.example",
        "relay.example; dmarc=pass",
      ]),
    ).toEqual({ spf: null, dkim: null, dmarc: "fail", failed: true });
    expect(parseAuthenticationResults([])).toBeNull();
  });
});
