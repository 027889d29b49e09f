import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../../platform/errors.js';

/**
 * Short-lived upload grants (`oss/ossSts`): a token that lets a client upload into one case for a few minutes
 * without the access token, e.g. a helper app next to the scanner. Signed, never stored; it names the session
 * that asked for it, and the uploads service accepts it only while that session is alive.
 */
export class UploadGrants {
  constructor(private readonly secret: string) {}

  private sign(payload: string) {
    return createHmac('sha256', `uploads:${this.secret}`).update(payload).digest('base64url');
  }

  issue(
    g: { organizationId: number; userId: number; userCode: string; sessionId: string; caseCode: string },
    ttlSeconds: number,
  ) {
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    const claims = { o: g.organizationId, u: g.userId, uc: g.userCode, s: g.sessionId, c: g.caseCode, e: exp };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `upl_${payload}.${this.sign(payload)}`, expiresAt: new Date(exp * 1000).toISOString() };
  }

  verify(token: string): {
    organizationId: number;
    userId: number;
    userCode: string;
    sessionId: string;
    caseCode: string;
  } {
    const [payload, sig] = token.slice('upl_'.length).split('.');
    if (!payload || !sig) fail('TOKEN_INVALID');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) fail('TOKEN_INVALID');
    const g = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      o: number;
      u: number;
      uc: string;
      s: string;
      c: string;
      e: number;
    };
    if (g.e < Date.now() / 1000 || typeof g.s !== 'string' || typeof g.uc !== 'string') fail('TOKEN_INVALID');
    return { organizationId: g.o, userId: g.u, userCode: g.uc, sessionId: g.s, caseCode: g.c };
  }
}
