import { describe, expect, it } from 'vitest';
import { avatarTypeOf } from './avatar-image.js';

const bytes = (...parts: Array<number[] | string>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('avatar content check', () => {
  it('knows PNG, JPEG and WebP by their first bytes', () => {
    expect(avatarTypeOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('image/png');
    expect(avatarTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(avatarTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses anything else, whatever its name says', () => {
    expect(avatarTypeOf(bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeUndefined();
    expect(avatarTypeOf(bytes('GIF89a'))).toBeUndefined();
    expect(avatarTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeUndefined();
    expect(avatarTypeOf(bytes([0x89], 'PN'))).toBeUndefined();
    expect(avatarTypeOf(new Uint8Array())).toBeUndefined();
  });
});
