import { afterAll, describe, expect, it } from 'vitest';
import { childDatabase, killChildServers, startChildServer } from './child-server.js';

/**
 * The request lines a site's logs keep (docs/operations.md, "Logs"): the built server with JSON request logging, as
 * in production, asked for addresses that carry credentials. None of them reaches the log.
 */
afterAll(() => killChildServers());

const SIGN = 'Zx9_kq3LmP0aB7cD8eF1gH2iJ4kL5mN6oP7qR8sT9uV';
const UPLOAD = '3f2a9c1e-8d4b-4e7a-9b1c-2d3e4f5a6b7c';

describe('request logs', () => {
  for (const format of ['json', 'pretty'] as const)
    it(`keep no sign, upload id or signed query in ${format} lines`, { timeout: 90_000 }, async () => {
      const db = await childDatabase();
      const server = await startChildServer(db, { LOG_LEVEL: 'info', LOG_FORMAT: format, LOG_REQUESTS: 'true' });
      try {
        for (const path of [
          `/activate-app/${SIGN}`,
          `/login-jump-page/${SIGN}?to=/case-management`,
          `/api/v2/files/tus/${UPLOAD}`,
          `/api/v2/order/attachment/oa1?exp=1&sig=${SIGN}`,
          `/oidc/auth?client_id=x&state=${SIGN}`,
        ])
          await fetch(`${server.baseUrl}${path}`).then((r) => r.arrayBuffer());
        await expect.poll(() => server.output(), { timeout: 5000 }).toContain('/login-jump-page/…');
        const output = server.output();
        expect(output).toContain('/activate-app/…');
        expect(output).toContain('/api/v2/files/tus/…');
        expect(output).not.toContain(SIGN);
        expect(output).not.toContain(UPLOAD);
      } finally {
        await server.stop();
        await db.drop();
      }
    });
});
