import { describe, expect, it } from 'vitest';
import { answersOf, authenticatesWith, operationIdOf } from './api-docs.js';

describe('operationIdOf', () => {
  it('names an operation after its path, in camel case, without path parameters', () => {
    expect(operationIdOf('/api/v2/user/refresh_token')).toBe('userRefreshToken');
    expect(operationIdOf('/api/v2/order/save_attachments')).toBe('orderSaveAttachments');
    expect(operationIdOf('/api/v2/user/email.confirm')).toBe('userEmailConfirm');
    expect(operationIdOf('/api/v2/user/free-login/sign')).toBe('userFreeLoginSign');
    expect(operationIdOf('/api/v2/file/download/:fileCode')).toBe('fileDownload');
    expect(operationIdOf('/api/v2/login')).toBe('login');
  });
});

describe('answersOf', () => {
  it('derives the answers of a signed-in call from its declaration', () => {
    const route = {
      method: 'POST',
      url: '/api/v2/user/resetPass',
      schema: {},
      config: {
        authentication: 'session' as const,
        permission: 'user:edit',
        sensitive: true,
        errors: ['NOT_FOUND'] as const,
      },
    };
    expect(answersOf(route)).toEqual([
      'PARAM_INVALID',
      'TOKEN_INVALID',
      'SESSION_ENDED',
      'NOT_FOUND',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'INTERNAL',
      'NO_PERMISSION',
      'ORGANIZATION_DISABLED',
      'REAUTH_REQUIRED',
      'IDEMPOTENCY_KEY_REUSED',
      'IDEMPOTENCY_PENDING',
    ]);
  });

  it('gives a public call no session answers, and a forced password change only where it is refused', () => {
    const publicGet = { method: 'GET', url: '/api/v2/common/captcha/init', config: { rateLimit: { max: 60 } } };
    expect(answersOf(publicGet)).toEqual(['TOO_MANY_REQUESTS', 'INTERNAL']);
    const allowed = {
      method: 'POST',
      url: '/api/v2/user/info',
      config: { authentication: 'session' as const, allowForcedPasswordChange: true },
    };
    expect(answersOf(allowed)).not.toContain('NO_PERMISSION');
  });

  it('knows the device API by the hook that authenticates it', () => {
    const route = {
      method: 'POST',
      url: '/api/v2/device/heartbeat',
      onRequest: authenticatesWith('device', async () => {}),
    };
    expect(answersOf(route)).toContain('TOKEN_INVALID');
    expect(answersOf(route)).not.toContain('SESSION_ENDED');
  });
});
