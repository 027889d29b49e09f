import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '@portal/contracts';
import { appConfigStore } from './appConfig';
import { serverLink } from './download';

afterEach(() => appConfigStore.set(null));

describe('serverLink', () => {
  it("turns the server's links to itself into paths on the page's origin, and leaves other links alone", () => {
    appConfigStore.set({ apiEndpoint: 'http://localhost:8080/api/v2' } as AppConfig);
    expect(serverLink('http://localhost:8080/api/v2/file/download/f1?exp=1&sig=x')).toBe(
      '/api/v2/file/download/f1?exp=1&sig=x',
    );
    expect(serverLink('https://bucket.s3.example.com/f1?X-Amz-Signature=y')).toBe(
      'https://bucket.s3.example.com/f1?X-Amz-Signature=y',
    );
    // Only the API's own prefix: a lookalike host or path is not the server.
    expect(serverLink('http://localhost:8080/api/v2x/file')).toBe('http://localhost:8080/api/v2x/file');
    expect(serverLink('http://localhost:8080.evil.test/api/v2/file')).toBe(
      'http://localhost:8080.evil.test/api/v2/file',
    );
  });

  it('keeps links as they are before the configuration is known', () => {
    expect(serverLink('http://localhost:8080/api/v2/file/download/f1')).toBe(
      'http://localhost:8080/api/v2/file/download/f1',
    );
  });
});
