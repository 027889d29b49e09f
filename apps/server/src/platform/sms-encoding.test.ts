import { describe, expect, it } from 'vitest';
import * as smpp from 'smpp';
import { DATA_CODING, MAX_SMS_TEXT, encodeSms, fitsGsm, plainSmsText, smsParts } from './sms-encoding.js';

/** What node-smpp's own decoder makes of bytes in a data coding (the receiving side of the loopback tests). */
const decode = (bytes: Buffer, dataCoding: number) =>
  (smpp.filters.message.decode.call({ data_coding: dataCoding, esm_class: 0 }, bytes) as { message: string }).message;

describe('SMS encoding', () => {
  it('uses the GSM default alphabet when every character has a place in it, extension characters as two septets', () => {
    const plain = encodeSms('Unread chat messages from Zahnärzte Müller: 2');
    expect(plain).toMatchObject({ coding: 'GSM7', dataCoding: DATA_CODING.GSM7 });
    expect(plain.bytes).toHaveLength(45);
    expect(decode(plain.bytes, 0)).toBe('Unread chat messages from Zahnärzte Müller: 2');

    const ext = encodeSms('Price [€5] {a|b} ~\\^');
    expect(ext.coding).toBe('GSM7');
    // 20 characters, 9 of them from the extension table: escape + code each.
    expect(ext.bytes).toHaveLength(29);
    expect([...ext.bytes.subarray(6, 8)]).toEqual([0x1b, 0x3c]);
    expect(decode(ext.bytes, 0)).toBe('Price [€5] {a|b} ~\\^');
    // '@' is septet 0, not ASCII's 0x40.
    expect([...encodeSms('@').bytes]).toEqual([0x00]);
  });

  it('uses UCS-2 for anything else, big-endian, surrogate pairs whole', () => {
    const ja = encodeSms('未読チャット 2 件');
    expect(ja).toMatchObject({ coding: 'UCS2', dataCoding: DATA_CODING.UCS2 });
    expect(ja.bytes).toHaveLength(20);
    expect(decode(ja.bytes, 8)).toBe('未読チャット 2 件');
    // Latin-1 letters outside the GSM alphabet (ç is there only in capital form; á is not at all) go as UCS-2.
    expect(fitsGsm('Ça va')).toBe(true);
    expect(fitsGsm('ça va')).toBe(false);
    expect(encodeSms('Mensajes de chat sin leer de Clínica: 2').coding).toBe('UCS2');
    expect(encodeSms('Непрочитанные сообщения').coding).toBe('UCS2');
    const emoji = encodeSms('ok 😀');
    expect(emoji.bytes).toHaveLength(10);
    expect(decode(emoji.bytes, 8)).toBe('ok 😀');
  });

  it('keeps a text that fits one SMS whole: 160 septets, 70 UCS-2 characters', () => {
    expect(encodeSms('x'.repeat(160)).segments).toHaveLength(1);
    expect(encodeSms('x'.repeat(161)).segments).toHaveLength(2);
    // Extension characters count twice.
    expect(encodeSms('€'.repeat(80)).segments).toHaveLength(1);
    expect(encodeSms('€'.repeat(81)).segments).toHaveLength(2);
    expect(encodeSms('未'.repeat(70)).segments).toHaveLength(1);
    expect(encodeSms('未'.repeat(71)).segments).toHaveLength(2);
  });

  it('cuts a longer text into parts of 153 septets or 67 UCS-2 characters, never inside an escape or a pair', () => {
    const long = encodeSms('y'.repeat(152) + '€' + 'z'.repeat(10));
    // The euro's escape and code would straddle septets 153 and 154: the euro starts the second part.
    expect(long.segments.map((s) => s.length)).toEqual([152, 12]);
    expect(Buffer.concat(long.segments)).toEqual(long.bytes);

    const ja = encodeSms('未'.repeat(150));
    expect(ja.segments.map((s) => s.length)).toEqual([134, 134, 32]);
    const pairs = encodeSms('a' + '😀'.repeat(40));
    // 2 bytes, then 4 per emoji: 33 emoji fill 134 bytes (2 + 132), the 34th would not fit.
    expect(pairs.segments.map((s) => s.length)).toEqual([134, 28]);
    expect(pairs.segments.map((s) => decode(s, 8)).join('')).toBe('a' + '😀'.repeat(40));
  });

  it('puts the header of a concatenated message before each part, one reference for all', () => {
    const encoded = encodeSms('w'.repeat(400));
    const { udh, messages } = smsParts(encoded, 0x1a7);
    expect(udh).toBe(true);
    expect(messages).toHaveLength(3);
    messages.forEach((m, i) => expect([...m.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0xa7, 3, i + 1]));
    expect(messages.map((m) => m.length)).toEqual([159, 159, 100]);
    expect(smsParts(encodeSms('short'), 1)).toEqual({ udh: false, messages: [encodeSms('short').bytes] });
  });

  it('sends a text on one line, in plain typography, trimmed and at most MAX_SMS_TEXT characters', () => {
    expect(plainSmsText('  Dental Portal – unread\nchat\t\u0007from “Smile” Lab…  ')).toBe(
      'Dental Portal - unread chat from "Smile" Lab...',
    );
    // French puts a no-break space before a colon.
    expect(plainSmsText('non lus de Labo\u00a0: 2')).toBe('non lus de Labo : 2');
    expect(fitsGsm(plainSmsText('Dental Portal – ungelesene Chat-Nachrichten von Zahnärzte: 2'))).toBe(true);
    const cut = plainSmsText('é'.repeat(MAX_SMS_TEXT + 10));
    expect([...cut]).toHaveLength(MAX_SMS_TEXT);
    expect(cut.endsWith('...')).toBe(true);
    expect(plainSmsText('A very long organization name indeed', 12)).toBe('A very lo...');
    expect(plainSmsText('😀'.repeat(10), 5)).toBe('😀😀...');
  });
});
