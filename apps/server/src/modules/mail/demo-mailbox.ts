import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { demoEmail, DEMO_ACCOUNTS } from '../../seed.js';

const COOKIE = 'portal_demo_mailbox';
const MAX_ENTRIES = 20;
const MAX_AGE_SECONDS = 7 * 24 * 3600;

interface Pass {
  /** Addresses registered from this browser: all their mail is shown. */
  a: string[];
  /** Single mails this browser caused to be sent to someone else's address (an invitation). */
  m: number[];
}

/**
 * Who may read what in the demo mailbox (demo mode only). Without a mail server a newcomer still needs the links
 * the portal mails, but the mailbox must never show mail of real accounts: it shows the demo accounts' mail, all
 * mail of the addresses registered from this browser, and the single mails this browser sent to an address (an
 * invitation). What this browser earned is kept in a signed, HttpOnly cookie scoped to the mailbox call.
 */
export class DemoMailbox {
  private readonly demoAddresses = new Set(DEMO_ACCOUNTS.map((d) => demoEmail(d.account)));
  constructor(private readonly config: Pick<Config, 'seedDemo' | 'jwtSecret' | 'publicUrl'>) {}

  get enabled() {
    return this.config.seedDemo;
  }

  /** What the browser behind a request may read of the mail sent to `address`. */
  scope(request: FastifyRequest, address: string): 'all' | { mailIds: number[] } {
    const email = address.trim().toLowerCase();
    const pass = this.read(request);
    if (this.demoAddresses.has(email) || pass.a.includes(email)) return 'all';
    return { mailIds: pass.m };
  }

  /** Lets the browser behind a request read an address's mail (it registered the address). */
  grantAddress(request: FastifyRequest, reply: FastifyReply, address: string) {
    if (!this.enabled) return;
    const pass = this.read(request);
    this.write(reply, { ...pass, a: [address.trim().toLowerCase(), ...pass.a] });
  }

  /** Lets the browser behind a request read one mail it caused to be sent. */
  grantMail(request: FastifyRequest, reply: FastifyReply, mailId: number) {
    if (!this.enabled) return;
    const pass = this.read(request);
    this.write(reply, { ...pass, m: [mailId, ...pass.m] });
  }

  private sign(payload: string) {
    return createHmac('sha256', `demo-mailbox:${this.config.jwtSecret}`).update(payload).digest('base64url');
  }

  private read(request: FastifyRequest): Pass {
    const raw = cookieValue(request.headers.cookie, COOKIE);
    const [payload, sig] = raw?.split('.') ?? [];
    if (!payload || !sig) return { a: [], m: [] };
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { a: [], m: [] };
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Pass>;
      return {
        a: Array.isArray(parsed.a) ? parsed.a.filter((x) => typeof x === 'string') : [],
        m: Array.isArray(parsed.m) ? parsed.m.filter((x) => Number.isInteger(x)) : [],
      };
    } catch {
      return { a: [], m: [] };
    }
  }

  private write(reply: FastifyReply, pass: Pass) {
    const kept: Pass = { a: [...new Set(pass.a)].slice(0, MAX_ENTRIES), m: [...new Set(pass.m)].slice(0, MAX_ENTRIES) };
    const payload = Buffer.from(JSON.stringify(kept)).toString('base64url');
    const secure = this.config.publicUrl.startsWith('https:') ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${COOKIE}=${payload}.${this.sign(payload)}; Path=/api/v2/mail; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
    );
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
