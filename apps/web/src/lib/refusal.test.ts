// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import { ERRORS } from '@portal/contracts';
import { ApiError } from './http';
import { setLanguage } from './i18n';
import { withRefresh } from './mutations';
import { registerNotifier } from './notify';
import { isRefusal, sayIfRefused } from './refusal';

const shown: string[] = [];
beforeAll(async () => {
  await setLanguage('de', false);
  registerNotifier(
    { error: (text: string) => void shown.push(String(text)) } as unknown as MessageInstance,
    {} as ModalHookAPI,
  );
});
beforeEach(() => void (shown.length = 0));

const refused = () => new ApiError(ERRORS.NO_PERMISSION.code, 'No permission', null, 403);
/** Waits for the message, which follows the loading of its translations. */
const said = async () => {
  for (let i = 0; i < 100 && shown.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  return [...shown];
};

describe('an action refused for want of a permission', () => {
  it('says so in the reader’s language; other failures are left to the handler', async () => {
    expect(isRefusal(refused())).toBe(true);
    expect(sayIfRefused(new ApiError(ERRORS.NOT_FOUND.code, 'Not found'))).toBe(false);
    expect(sayIfRefused(new Error('network'))).toBe(false);
    expect(sayIfRefused(null)).toBe(false);
    expect(sayIfRefused(refused())).toBe(true);
    expect(await said()).toEqual(['Sie haben keine Berechtigung, dies zu tun.']);
  });

  it('is said once by every mutation hook, in place of the screen’s own error display', async () => {
    const seen: string[] = [];
    const options = withRefresh<null, number>(
      { onError: (e) => void seen.push(`screen ${(e as ApiError).code}`) },
      { settled: () => void seen.push('reload') },
    );
    const run = (fail: ApiError) =>
      new MutationObserver(new QueryClient(), { ...options, mutationFn: () => Promise.reject(fail) }).mutate(1);
    await expect(run(refused())).rejects.toThrow();
    expect(await said()).toEqual(['Sie haben keine Berechtigung, dies zu tun.']);
    expect(seen).toEqual(['reload']);
    shown.length = 0;
    await expect(run(new ApiError(ERRORS.NOT_FOUND.code, 'Not found'))).rejects.toThrow();
    expect(seen).toEqual(['reload', `screen ${ERRORS.NOT_FOUND.code}`, 'reload']);
    expect(shown).toEqual([]);
  });
});
