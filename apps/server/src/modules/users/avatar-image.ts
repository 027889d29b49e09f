import type { AVATAR_TYPES } from '@portal/contracts';

type AvatarType = (typeof AVATAR_TYPES)[number];

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of an avatar judged by its first bytes (the name and the declared type are not trusted):
 * PNG's eight-byte signature, JPEG's start-of-image marker, WebP's RIFF container with the WEBP form.
 */
export function avatarTypeOf(bytes: Uint8Array): AvatarType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}
