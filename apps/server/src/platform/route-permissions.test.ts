import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAuthentication, type AuthDeps } from './auth.js';

/** Registering a signed-in call that says neither which permission it needs nor why anyone may call it fails at once. */
describe('the route permission gate', () => {
  const deps = {} as AuthDeps;
  const build = (config: Record<string, unknown>) => {
    const app = Fastify();
    app.register(async (scope) => {
      registerAuthentication(scope, deps);
      scope.post('/call', { config }, async () => ({}));
    });
    return app.ready();
  };

  it('refuses a private route with neither a permission nor a reason', async () => {
    await expect(build({})).rejects.toThrow(
      'POST /call declares neither a permission nor why every member may call it',
    );
    await expect(build({ everyMember: '  ' })).rejects.toThrow('declares neither');
  });

  it('takes a permission, one told by the request, or the reason every member may call it', async () => {
    await expect(build({ permission: 'case:view' })).resolves.toBeDefined();
    await expect(build({ permission: () => 'case:view' })).resolves.toBeDefined();
    await expect(build({ everyMember: "the caller's own account" })).resolves.toBeDefined();
  });
});
