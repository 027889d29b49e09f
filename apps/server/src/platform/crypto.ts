import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Unguessable one-time tokens: 256 bits, URL-safe. Only their hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
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
