/**
 * How a text message's words become SMS bytes: the GSM 03.38 default alphabet (7-bit, sent unpacked, one byte per
 * septet, as SMPP's data_coding 0 carries it) when every character has a place in it, else UCS-2 (data_coding 8),
 * which every script fits. A text longer than one SMS is cut into concatenated parts, each with the user data header
 * of a concatenated short message (8-bit reference), never inside an escape pair or a surrogate pair.
 */

/** The GSM 03.38 default alphabet, by code (0x1B is the escape to the extension table, never a character). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: escape (0x1B), then this code. */
const GSM_EXTENSION: Record<string, number> = {
  '\f': 0x0a,
  '^': 0x14,
  '{': 0x28,
  '}': 0x29,
  '\\': 0x2f,
  '[': 0x3c,
  '~': 0x3d,
  ']': 0x3e,
  '|': 0x40,
  '€': 0x65,
};
const GSM_CODES = new Map<string, number>([...GSM_BASIC].map((c, i) => [c, i]));
GSM_CODES.delete('\x1b');
const ESCAPE = 0x1b;

/** Data coding of SMPP submit_sm: the centre's default alphabet (GSM 03.38), or UCS-2. */
export const DATA_CODING = { GSM7: 0x00, UCS2: 0x08 } as const;
export type SmsCoding = keyof typeof DATA_CODING;

/** One SMS holds 160 septets or 140 bytes; a part of a concatenated one, 153 septets or 134 bytes (6 for its header). */
const SINGLE = { GSM7: 160, UCS2: 140 } as const;
const PART = { GSM7: 153, UCS2: 134 } as const;
/** A concatenated message has at most 255 parts. */
const MAX_PARTS = 255;
/** Longest text the portal sends (a notice is one or two parts; anything longer is cut with an ellipsis). */
export const MAX_SMS_TEXT = 480;

/** Typography the GSM alphabet lacks, replaced by its plain form so a Latin text need not go as UCS-2. */
const PLAIN: Array<[RegExp, string]> = [
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u2018\u2019\u201a\u201b\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"'],
  [/\u2026/g, '...'],
];

/**
 * A text as it may go out: control characters and line breaks become spaces, runs of white space one space,
 * typographic dashes and quotes plain ones, trimmed, at most `MAX_SMS_TEXT` characters (cut on a character, with
 * "...").
 */
export function plainSmsText(text: string, max = MAX_SMS_TEXT): string {
  let s = text.normalize('NFC');
  for (const [from, to] of PLAIN) s = s.replace(from, to);
  s = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/gu, ' ').trim();
  const chars = [...s];
  return chars.length <= max
    ? s
    : `${chars
        .slice(0, max - 3)
        .join('')
        .trimEnd()}...`;
}

/** The GSM septets of one character, or undefined when the alphabet lacks it. */
function gsmSeptets(c: string): number[] | undefined {
  const basic = GSM_CODES.get(c);
  if (basic !== undefined) return [basic];
  const ext = GSM_EXTENSION[c];
  return ext === undefined ? undefined : [ESCAPE, ext];
}

/** Whether the whole text fits the GSM default alphabet. */
export function fitsGsm(text: string): boolean {
  return [...text].every((c) => gsmSeptets(c) !== undefined);
}

export interface EncodedSms {
  coding: SmsCoding;
  dataCoding: number;
  /** The whole text's bytes (septets unpacked for GSM, UTF-16 big-endian for UCS-2), for message_payload. */
  bytes: Buffer;
  /** The bytes of each SMS: one when the text fits one, else the parts of a concatenated message (no header yet). */
  segments: Buffer[];
}

/** The bytes of a text: in the GSM alphabet when it fits, else UCS-2, and cut into SMS-sized segments. */
export function encodeSms(text: string): EncodedSms {
  const coding: SmsCoding = fitsGsm(text) ? 'GSM7' : 'UCS2';
  // Each character's bytes: never split between two parts.
  const units = [...text].map((c) =>
    coding === 'GSM7' ? Buffer.from(gsmSeptets(c)!) : Buffer.from(Buffer.from(c, 'utf16le').swap16()),
  );
  const bytes = Buffer.concat(units);
  if (bytes.length <= SINGLE[coding]) return { coding, dataCoding: DATA_CODING[coding], bytes, segments: [bytes] };
  const segments: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const u of units) {
    if (size + u.length > PART[coding]) {
      segments.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(u);
    size += u.length;
  }
  if (current.length) segments.push(Buffer.concat(current));
  if (segments.length > MAX_PARTS) throw new Error(`SMS text too long: ${segments.length} parts`);
  return { coding, dataCoding: DATA_CODING[coding], bytes, segments };
}

/**
 * The short messages of an encoded text: the one segment as it is, or each part behind the user data header of a
 * concatenated short message (IEI 0x00: reference, total, sequence from 1); `udh` tells to set esm_class's UDHI bit.
 */
export function smsParts(encoded: EncodedSms, reference: number): { udh: boolean; messages: Buffer[] } {
  const { segments } = encoded;
  if (segments.length === 1) return { udh: false, messages: segments };
  return {
    udh: true,
    messages: segments.map((s, i) =>
      Buffer.concat([Buffer.from([0x05, 0x00, 0x03, reference & 0xff, segments.length, i + 1]), s]),
    ),
  };
}
