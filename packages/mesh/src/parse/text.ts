/** A small byte-level tokenizer for ASCII mesh formats (no string allocation per number). */
import { MeshParseError, type MeshFormat } from '../types.js';

const POW10: number[] = [];
for (let i = 0; i <= 22; i++) POW10.push(10 ** i);

export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

export class ByteScanner {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly format: MeshFormat,
    readonly end = bytes.length,
  ) {}

  fail(reason: string): never {
    throw new MeshParseError(this.format, reason);
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  /** Skips spaces/tabs/CR but not newlines. */
  skipInlineSpace(): void {
    const b = this.bytes;
    while (this.pos < this.end && isSpace(b[this.pos]!)) this.pos++;
  }

  /** Skips all whitespace including newlines. */
  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < this.end) {
      const c = b[this.pos]!;
      if (c === 10 || isSpace(c)) this.pos++;
      else break;
    }
  }

  skipLine(): void {
    const b = this.bytes;
    while (this.pos < this.end && b[this.pos] !== 10) this.pos++;
    if (this.pos < this.end) this.pos++;
  }

  atLineEnd(): boolean {
    return this.pos >= this.end || this.bytes[this.pos] === 10;
  }

  /** Reads one whitespace-delimited word (lower-cased ASCII), or '' at line end. */
  word(): string {
    this.skipInlineSpace();
    const b = this.bytes;
    const start = this.pos;
    while (this.pos < this.end) {
      const c = b[this.pos]!;
      if (c === 10 || isSpace(c)) break;
      this.pos++;
    }
    if (this.pos - start > 64) this.fail('token too long');
    let s = '';
    for (let i = start; i < this.pos; i++) {
      let c = b[i]!;
      if (c >= 65 && c <= 90) c += 32;
      s += String.fromCharCode(c);
    }
    return s;
  }

  /** True when the next bytes (after inline space) equal `lit` (lower-case ASCII), case-insensitive; consumes them. */
  matchWord(lit: string): boolean {
    this.skipInlineSpace();
    const b = this.bytes;
    if (this.pos + lit.length > this.end) return false;
    for (let i = 0; i < lit.length; i++) {
      let c = b[this.pos + i]!;
      if (c >= 65 && c <= 90) c += 32;
      if (c !== lit.charCodeAt(i)) return false;
    }
    const after = this.pos + lit.length;
    if (after < this.end) {
      const c = b[after]!;
      if (!(c === 10 || isSpace(c))) return false;
    }
    this.pos = after;
    return true;
  }

  /** Parses a decimal number (int or float, optional exponent). Fails on anything else. */
  number(): number {
    this.skipInlineSpace();
    const b = this.bytes;
    let p = this.pos;
    const end = this.end;
    let neg = false;
    if (p < end && (b[p] === 45 || b[p] === 43)) {
      neg = b[p] === 45;
      p++;
    }
    let mant = 0;
    let digits = 0;
    let exp10 = 0;
    let any = false;
    while (p < end) {
      const c = b[p]! - 48;
      if (c < 0 || c > 9) break;
      if (digits < 17) {
        mant = mant * 10 + c;
        if (mant !== 0) digits++;
      } else exp10++;
      any = true;
      p++;
    }
    if (p < end && b[p] === 46) {
      p++;
      while (p < end) {
        const c = b[p]! - 48;
        if (c < 0 || c > 9) break;
        if (digits < 17) {
          mant = mant * 10 + c;
          if (mant !== 0) digits++;
          exp10--;
        }
        any = true;
        p++;
      }
    }
    if (!any) this.fail('number expected');
    if (p < end && (b[p] === 101 || b[p] === 69)) {
      p++;
      let eneg = false;
      if (p < end && (b[p] === 45 || b[p] === 43)) {
        eneg = b[p] === 45;
        p++;
      }
      let e = 0;
      let eany = false;
      while (p < end) {
        const c = b[p]! - 48;
        if (c < 0 || c > 9) break;
        if (e < 10000) e = e * 10 + c;
        eany = true;
        p++;
      }
      if (!eany) this.fail('bad exponent');
      exp10 += eneg ? -e : e;
    }
    if (p < end) {
      const c = b[p]!;
      if (!(c === 10 || isSpace(c) || c === 47 /* '/' handled by caller */)) this.fail('bad number');
    }
    this.pos = p;
    let v = mant;
    if (exp10 > 0) v = exp10 <= 22 ? v * POW10[exp10]! : v * 10 ** exp10;
    else if (exp10 < 0) v = -exp10 <= 22 ? v / POW10[-exp10]! : v / 10 ** -exp10;
    if (!Number.isFinite(v)) this.fail('number out of range');
    return neg ? -v : v;
  }
}

/** Growable typed arrays for text formats (capacity bounded by the input size, so no absurd allocation). */
export class GrowF32 {
  a: Float32Array;
  n = 0;
  constructor(cap = 1024) {
    this.a = new Float32Array(cap);
  }
  push3(x: number, y: number, z: number): void {
    if (this.n + 3 > this.a.length) this.grow();
    const a = this.a;
    a[this.n++] = x;
    a[this.n++] = y;
    a[this.n++] = z;
  }
  private grow(): void {
    const b = new Float32Array(this.a.length * 2);
    b.set(this.a);
    this.a = b;
  }
  result(): Float32Array {
    return this.a.slice(0, this.n);
  }
}

export class GrowU32 {
  a: Uint32Array;
  n = 0;
  constructor(cap = 1024) {
    this.a = new Uint32Array(cap);
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  result(): Uint32Array {
    return this.a.slice(0, this.n);
  }
}

export class GrowU8 {
  a: Uint8Array;
  n = 0;
  constructor(cap = 1024) {
    this.a = new Uint8Array(cap);
  }
  push3(x: number, y: number, z: number): void {
    if (this.n + 3 > this.a.length) {
      const b = new Uint8Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
    this.a[this.n++] = y;
    this.a[this.n++] = z;
  }
  result(): Uint8Array {
    return this.a.slice(0, this.n);
  }
}

export function startsWithAscii(bytes: Uint8Array, lit: string, offset = 0): boolean {
  if (bytes.length < offset + lit.length) return false;
  for (let i = 0; i < lit.length; i++) if (bytes[offset + i] !== lit.charCodeAt(i)) return false;
  return true;
}

/** Index of the first occurrence of an ASCII literal in bytes[from, to), or -1. */
export function indexOfAscii(bytes: Uint8Array, lit: string, from = 0, to = bytes.length): number {
  const first = lit.charCodeAt(0);
  const last = Math.min(to, bytes.length) - lit.length;
  outer: for (let i = from; i <= last; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < lit.length; j++) if (bytes[i + j] !== lit.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

export function toU8(input: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  return new Uint8Array(input);
}
