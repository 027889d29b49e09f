import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../../platform/errors.js';

/**
 * Short-lived upload grants (`oss/ossSts`): a token that lets a client upload into one case for a
 * few minutes without its session, e.g. a helper app next to the scanner. Signed, never stored.
 */
export class UploadGrants {
  constructor(private readonly secret: string) {}

  private sign(payload: string) {
    return createHmac('sha256', `uploads:${this.secret}`).update(payload).digest('base64url');
  }

  issue(g: { organizationId: number; userId: number; caseCode: string }, ttlSeconds: number) {
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    const payload = Buffer.from(JSON.stringify({ o: g.organizationId, u: g.userId, c: g.caseCode, e: exp })).toString('base64url');
    return { token: `upl_${payload}.${this.sign(payload)}`, expiresAt: new Date(exp * 1000).toISOString() };
  }

  verify(token: string): { organizationId: number; userId: number; caseCode: string } {
    const [payload, sig] = token.slice('upl_'.length).split('.');
    if (!payload || !sig) fail('TOKEN_INVALID');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) fail('TOKEN_INVALID');
    const g = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o: number; u: number; c: string; e: number };
    if (g.e < Date.now() / 1000) fail('TOKEN_INVALID');
    return { organizationId: g.o, userId: g.u, caseCode: g.c };
  }
}
