import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Unguessable one-time tokens: 256 bits, URL-safe. Only their hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Whether an Authorization header carries the bearer token (compared in constant time, whatever the lengths). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * Seals a value so that only a holder of `secret` can open it (AES-256-GCM under a key derived from the secret).
 * Used where the server must not be able to answer with the value to anyone but the secret's holder.
 */
export function sealWith(secret: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}
/** Opens what `sealWith` sealed; undefined when the secret is wrong or the box was altered. */
export function openWith(secret: string, box: string): string | undefined {
  const raw = Buffer.from(box, 'base64url');
  if (raw.length < 29) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
function sealKey(secret: string) {
  return createHmac('sha256', 'portal:seal').update(secret).digest();
}

export function newId(): string {
  return randomUUID();
}
/** Short public codes (user codes, organization codes): 8 hex characters (§9) with a prefix. */
export function newCode(prefix: string): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const ARGON = { algorithm: 2 /* Argon2id */ as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON);
}
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
/** A hash to verify against when the account is unknown, so timing does not reveal which accounts exist. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
