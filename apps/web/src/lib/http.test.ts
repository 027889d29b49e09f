// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, configureHttp, http, postForm, resetHttpState } from './http';
import { tokens } from './tokens';

type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
function ok(data: unknown) {
  return json({ code: 200, msg: 'ok', data });
}
function infoOf(init: RequestInit): { accessToken: string } {
  return JSON.parse((init.headers as Record<string, string>).info!) as { accessToken: string };
}

let fetchMock: ReturnType<typeof vi.fn>;
function route(handler: Handler) {
  fetchMock = vi.fn((url: string, init: RequestInit) => Promise.resolve(handler(url.replace('/api/v2/', ''), init)));
  vi.stubGlobal('fetch', fetchMock);
}

const hooks = {
  toast: vi.fn(),
  logout: vi.fn(),
  regionMismatch: vi.fn(),
  reauthenticate: vi.fn(async () => true),
  translate: vi.fn((key: string) => `t:${key}`),
  lang: () => 'de',
  signingOut: () => false,
};

beforeEach(() => {
  localStorage.clear();
  resetHttpState();
  Object.values(hooks).forEach((h) => 'mockClear' in h && h.mockClear());
  configureHttp(hooks);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('http client', () => {
  it('unwraps the envelope and sends info, lang and timezone headers as JSON', async () => {
    tokens.set('A1', 'R1');
    route(() => ok({ hello: 'world' }));
    await expect(http.post('user/info', { x: 1 })).resolves.toEqual({ hello: 'world' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v2/user/info');
    const headers = init.headers as Record<string, string>;
    expect(headers.lang).toBe('de');
    expect(headers['content-type']).toBe('application/json');
    expect(headers.timezone).toBeTruthy();
    expect(infoOf(init)).toMatchObject({ appCode: 'portal-web', accessToken: 'A1', endPointClass: 'web' });
    expect(init.body).toBe(JSON.stringify({ x: 1 }));
  });

  it('refreshes once for concurrent 401s and replays every waiting call', async () => {
    tokens.set('old', 'R1');
    let refreshes = 0;
    route(async (path, init) => {
      if (path === 'user/refresh_token') {
        refreshes++;
        await new Promise((r) => setTimeout(r, 5));
        return ok({ accessToken: 'new', refreshToken: 'R2' });
      }
      return infoOf(init).accessToken === 'new' ? ok(path) : json({ code: 401, msg: 'expired', data: null }, 401);
    });
    const results = await Promise.all([http.post('a'), http.post('b'), http.post('c')]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(refreshes).toBe(1);
    expect(tokens.access()).toBe('new');
    expect(tokens.refresh()).toBe('R2');
    expect(hooks.logout).not.toHaveBeenCalled();
  });

  it('logs out when the refresh fails', async () => {
    tokens.set('old', 'R1');
    route((path) =>
      path === 'user/refresh_token'
        ? json({ code: 1013, msg: 'bad refresh', data: null }, 401)
        : json({ code: 401, msg: 'expired', data: null }, 401),
    );
    const results = await Promise.allSettled([http.post('a'), http.post('b')]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).code === 401)).toBe(true);
    expect(hooks.logout).toHaveBeenCalled();
    expect(fetchMock.mock.calls.filter(([u]) => String(u).endsWith('refresh_token'))).toHaveLength(1);
  });

  it('logs out without calling refresh when there is no refresh token', async () => {
    tokens.set('old', '');
    route(() => json({ code: 401, msg: 'expired', data: null }, 401));
    await expect(http.post('a')).rejects.toBeInstanceOf(ApiError);
    expect(hooks.logout).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows at most one toast per second', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(10_000);
    route(() => json({ code: 9999, msg: 'server says no', data: null }, 400));
    await expect(http.post('a')).rejects.toMatchObject({ code: 9999, msg: 'server says no' });
    await expect(http.post('b')).rejects.toBeInstanceOf(ApiError);
    expect(hooks.toast).toHaveBeenCalledTimes(1);
    expect(hooks.toast).toHaveBeenCalledWith('server says no');
    now.mockReturnValue(11_000);
    await expect(http.post('c')).rejects.toBeInstanceOf(ApiError);
    expect(hooks.toast).toHaveBeenCalledTimes(2);
  });

  it('shows nothing for ignored codes and the mapped message for known ones', async () => {
    vi.spyOn(Date, 'now').mockReturnValueOnce(1_000).mockReturnValueOnce(5_000).mockReturnValue(9_000);
    route((path) =>
      path === 'ignored'
        ? json({ code: 1019, msg: 'not verified', data: null }, 403)
        : json({ code: 1004, msg: 'server text', data: null }, 400),
    );
    await expect(http.post('ignored')).rejects.toMatchObject({ code: 1019 });
    expect(hooks.toast).not.toHaveBeenCalled();
    await expect(http.post('known')).rejects.toMatchObject({ code: 1004, status: 400 });
    expect(hooks.toast).toHaveBeenCalledWith('t:invalidPassword');
  });

  it('stays quiet for silent calls but still rejects with the error', async () => {
    route(() => json({ code: 1003, msg: 'no such account', data: { failures: 3, captchaRequired: true } }, 400));
    await expect(http.post('login', {}, { silent: true, auth: false })).rejects.toMatchObject({
      code: 1003,
      data: { failures: 3, captchaRequired: true },
    });
    expect(hooks.toast).not.toHaveBeenCalled();
  });

  it('shows the message and logs out on 402', async () => {
    route(() => json({ code: 402, msg: 'ended', data: null }, 401));
    await expect(http.post('a')).rejects.toMatchObject({ code: 402 });
    expect(hooks.toast).toHaveBeenCalledWith('t:sessionEnded');
    expect(hooks.logout).toHaveBeenCalled();
  });

  it('says nothing more of a call refused as signed out while the session is being ended, or after', async () => {
    tokens.set('A1', 'R1');
    route(() => json({ code: 402, msg: 'ended', data: null }, 401));
    configureHttp({ signingOut: () => true });
    await expect(http.post('dashboard/index')).rejects.toMatchObject({ code: 402 });
    configureHttp({ signingOut: () => false });
    // Sent in a session that has ended by the time it is answered.
    let answer!: (r: Response) => void;
    route(() => new Promise<Response>((resolve) => (answer = resolve)));
    const late = http.post('dashboard/index');
    await vi.waitFor(() => expect(answer).toBeDefined());
    tokens.clear();
    answer(json({ code: 401, msg: 'expired', data: null }, 401));
    await expect(late).rejects.toMatchObject({ code: 401 });
    expect(hooks.toast).not.toHaveBeenCalled();
    expect(hooks.logout).not.toHaveBeenCalled();
  });

  it('says the organization was disabled and logs out; at sign-in the page answers it itself', async () => {
    route(() => json({ code: 1006, msg: 'disabled', data: null }, 403));
    await expect(http.post('a')).rejects.toMatchObject({ code: 1006 });
    expect(hooks.toast).toHaveBeenCalledWith('t:organizationDisabled');
    expect(hooks.logout).toHaveBeenCalledTimes(1);
    await expect(http.post('login', {}, { auth: false, silent: true })).rejects.toMatchObject({ code: 1006 });
    expect(hooks.logout).toHaveBeenCalledTimes(1);
  });

  it('hands a region mismatch to the region modal', async () => {
    route(() => json({ code: 10503, msg: 'other site', data: { target: 'https://eu.example.com' } }, 503));
    await expect(http.post('login', {}, { auth: false })).rejects.toMatchObject({ code: 10503 });
    expect(hooks.regionMismatch).toHaveBeenCalledWith('other site', 'https://eu.example.com');
    expect(hooks.logout).not.toHaveBeenCalled();
    expect(hooks.toast).not.toHaveBeenCalled();
  });

  it('asks for the password on 1014 and replays the call', async () => {
    let calls = 0;
    route(() => (++calls === 1 ? json({ code: 1014, msg: 'confirm', data: null }, 403) : ok('done')));
    await expect(http.post('company/review', {})).resolves.toBe('done');
    expect(hooks.reauthenticate).toHaveBeenCalledTimes(1);
  });

  it('asks for the password on 1074 (a password reset) and replays the call, showing no toast', async () => {
    let calls = 0;
    route(() => (++calls === 1 ? json({ code: 1074, msg: 'verify', data: null }, 403) : ok('reset')));
    await expect(http.post('user/resetPass', {})).resolves.toBe('reset');
    expect(hooks.reauthenticate).toHaveBeenCalledTimes(1);
    expect(hooks.toast).not.toHaveBeenCalled();
  });

  it('sends a write with one idempotency key, and again with it after a lost answer; a read has none', async () => {
    vi.useFakeTimers();
    tokens.set('A1', 'R1');
    try {
      const sent: Array<string | undefined> = [];
      let calls = 0;
      route((_path, init) => {
        sent.push((init.headers as Record<string, string>)['idempotency-key']);
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        if (calls === 2) return new Response('bad gateway', { status: 502, statusText: 'Bad Gateway' });
        return ok('saved');
      });
      const saving = http.write('case/update', { caseCode: 'C1' });
      await vi.runAllTimersAsync();
      await expect(saving).resolves.toBe('saved');
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(/^web-[0-9a-f]{32}$/);
      expect(new Set(sent).size).toBe(1);
      expect(hooks.toast).not.toHaveBeenCalled();
      expect(hooks.logout).not.toHaveBeenCalled();

      // Another write has another key; a read has none and is not sent again.
      sent.length = 0;
      calls = 2;
      await http.write('case/update', { caseCode: 'C1' });
      route((_path, init) => {
        sent.push((init.headers as Record<string, string>)['idempotency-key']);
        throw new TypeError('Failed to fetch');
      });
      await expect(http.post('case/list', {})).rejects.toMatchObject({ code: -1 });
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatch(/^web-/);
      expect(sent[1]).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up a write after three sendings, and asks again while its first sending still runs', async () => {
    vi.useFakeTimers();
    tokens.set('A1', 'R1');
    try {
      route(() => {
        throw new TypeError('Failed to fetch');
      });
      const lost = http.write('order/action', {});
      const settled = expect(lost).rejects.toMatchObject({ code: -1 });
      await vi.runAllTimersAsync();
      await settled;
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(hooks.toast).toHaveBeenCalledTimes(1);

      let calls = 0;
      route(() =>
        ++calls < 3 ? json({ code: 2099, msg: 'pending', data: { outcomeUnknown: false } }, 409) : ok('applied'),
      );
      const pending = http.write('order/action', {});
      await vi.runAllTimersAsync();
      await expect(pending).resolves.toBe('applied');
      expect(calls).toBe(3);

      // When the first sending's outcome is unknown (its process died), the person is told to check before trying again.
      route(() => json({ code: 2099, msg: 'unknown', data: { outcomeUnknown: true } }, 409));
      await expect(http.write('order/action', {})).rejects.toMatchObject({ code: 2099 });

      // Signed out (a sign-in, a registration): no key, and a lost answer is not sent again.
      tokens.clear();
      route((_path, init) => {
        expect((init.headers as Record<string, string>)['idempotency-key']).toBeUndefined();
        throw new TypeError('Failed to fetch');
      });
      await expect(http.write('user/regist', {}, { auth: false })).rejects.toMatchObject({ code: -1 });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes attachments through as blobs', async () => {
    route(
      () =>
        new Response('file-bytes', { status: 200, headers: { 'content-disposition': 'attachment; filename="a.zip"' } }),
    );
    const res = await http.post<{ blob: Blob; filename: string }>('export');
    expect(res.filename).toBe('a.zip');
    expect(await res.blob.text()).toBe('file-bytes');
  });

  describe('multipart form posts', () => {
    const form = () => {
      const f = new FormData();
      f.append('orderCode', 'O1');
      f.append('file', new File(['png'], 'a.png'), 'a.png');
      return f;
    };

    it('posts the form as it is, with the usual headers, a bearer token and no JSON content-type', async () => {
      tokens.set('A1', 'R1');
      route(() => ok({ list: ['ATT-1'] }));
      const body = form();
      await expect(postForm('order/save_attachments', body)).resolves.toEqual({ list: ['ATT-1'] });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
      expect(url).toBe('/api/v2/order/save_attachments');
      expect(init.method).toBe('POST');
      expect(init.body).toBe(body);
      const headers = init.headers as Record<string, string>;
      expect(headers.authorization).toBe('Bearer A1');
      expect(headers.lang).toBe('de');
      expect(headers['content-type']).toBeUndefined();
      expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('content-type');
      expect(infoOf(init)).toMatchObject({ accessToken: 'A1' });
      expect(init.signal).toBeInstanceOf(AbortSignal);
    });

    it('maps an error envelope to an ApiError and shows it like other calls (unless silent)', async () => {
      vi.spyOn(Date, 'now').mockReturnValueOnce(1_000).mockReturnValue(5_000);
      route(() => json({ code: 1004, msg: 'server text', data: { field: 'file' } }, 400));
      await expect(postForm('equipment/import_product_catalog', form())).rejects.toMatchObject({
        code: 1004,
        msg: 'server text',
        data: { field: 'file' },
        status: 400,
      });
      expect(hooks.toast).toHaveBeenCalledWith('t:invalidPassword');
      hooks.toast.mockClear();
      const err = await postForm('order/save_attachments', form(), { silent: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 1004, status: 400 });
      expect(hooks.toast).not.toHaveBeenCalled();
    });

    it('refreshes an expired token once and sends the same form again with the new one', async () => {
      tokens.set('old', 'R1');
      const sent: { token: string; bearer: string | undefined; body: unknown }[] = [];
      route((path, init) => {
        if (path === 'user/refresh_token') return ok({ accessToken: 'new', refreshToken: 'R2' });
        const headers = init.headers as Record<string, string>;
        sent.push({ token: infoOf(init).accessToken, bearer: headers.authorization, body: init.body });
        return infoOf(init).accessToken === 'new'
          ? ok({ imported: 2, errors: [] })
          : json({ code: 401, msg: 'expired', data: null }, 401);
      });
      const body = form();
      await expect(postForm('equipment/import_product_catalog', body)).resolves.toEqual({ imported: 2, errors: [] });
      expect(sent).toEqual([
        { token: 'old', bearer: 'Bearer old', body },
        { token: 'new', bearer: 'Bearer new', body },
      ]);
      expect(fetchMock.mock.calls.filter(([u]) => String(u).endsWith('refresh_token'))).toHaveLength(1);
      expect(hooks.logout).not.toHaveBeenCalled();
    });

    it('gives up and logs out when the refresh fails', async () => {
      tokens.set('old', 'R1');
      route((path) =>
        path === 'user/refresh_token'
          ? json({ code: 1013, msg: 'bad refresh', data: null }, 401)
          : json({ code: 401, msg: 'expired', data: null }, 401),
      );
      await expect(postForm('order/save_attachments', form(), { silent: true })).rejects.toMatchObject({ code: 401 });
      expect(hooks.logout).toHaveBeenCalledTimes(1);
      expect(fetchMock.mock.calls.filter(([u]) => String(u).endsWith('save_attachments'))).toHaveLength(1);
    });
  });

  it('reports transport failures with the error text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(http.get('common/monitor')).rejects.toMatchObject({ code: -1, msg: 'Failed to fetch' });
    expect(hooks.toast).toHaveBeenCalledWith('Failed to fetch');
  });
});
