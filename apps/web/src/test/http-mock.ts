import { beforeEach, vi } from 'vitest';

/**
 * A stand-in for lib/http in screen tests: every post (JSON or form) is recorded in `server.calls` and answered
 * by `server.answer`; gets and unanswered calls stay pending. A test file wires it with
 *
 *   vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
 *   const server = mockServer();
 *
 * (vi.mock is hoisted above the imports, so its factory loads this module itself; both see the same instance.)
 */

export interface HttpCall {
  path: string;
  body: unknown;
}
export type Answer = (path: string, body: unknown) => Promise<unknown>;

/** An answer that never comes: the screen keeps what the seeded cache gave it. */
export const pending = (): Promise<never> => new Promise(() => {});

export const server = {
  calls: [] as HttpCall[],
  answer: pending as Answer,
  /** The body of the last call to this path. */
  lastCall(path: string): unknown {
    return server.calls.filter((c) => c.path === path).at(-1)?.body;
  },
  reset(answer: Answer = pending) {
    server.calls.length = 0;
    server.answer = answer;
    httpModule.postForm.mockClear();
  },
};

const post = (path: string, body?: unknown) => {
  server.calls.push({ path, body });
  return server.answer(path, body);
};

export const httpModule = {
  http: { post, write: post, get: () => pending() },
  /** Also a spy, for the options (silent) a form post was made with. */
  postForm: vi.fn((path: string, form: FormData, _opts?: object) => post(path, form)),
  ApiError: class ApiError extends Error {},
  CLIENT_CODES: { network: -1, timeout: -2, canceled: -3 },
  errorText: () => null,
};

/** Forgets the calls and sets the answer (by default: none) before each test of the file. */
export function mockServer(answer: Answer = pending) {
  beforeEach(() => server.reset(answer));
  return server;
}
