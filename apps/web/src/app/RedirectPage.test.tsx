// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { clearPendingRedirect, peekPendingRedirect, setPendingRedirect } from '../lib/session';
import { cleanup, renderWithProviders } from '../test/render';
import { flush } from '../test/dom';
import { signInAs } from '../test/session';
import { RedirectPage } from './RedirectPage';

afterEach(() => {
  cleanup();
  clearPendingRedirect();
});

const routes = [
  { path: '/redirect', element: <RedirectPage /> },
  { path: '/own-space', element: <div data-testid="own-space" /> },
  { path: '/case-management', element: <div data-testid="cases" /> },
  { path: '*', element: <div data-testid="elsewhere" /> },
];

describe('the post-sign-in redirect', () => {
  it('is read without being consumed, so a render that is redone finds it again', () => {
    setPendingRedirect({ url: '/own-space', userCode: 'u1' });
    expect(peekPendingRedirect('u1')).toBe('/own-space');
    expect(peekPendingRedirect('u1')).toBe('/own-space');
    expect(peekPendingRedirect('someone-else')).toBeNull();
    setPendingRedirect({ url: '//evil.test/x', userCode: null });
    expect(peekPendingRedirect('u1')).toBeNull();
  });

  it('returns the user to the page they left, once', async () => {
    signInAs(2);
    setPendingRedirect({ url: '/case-management', userCode: 'u1' });
    const { host, router } = await renderWithProviders(routes, '/redirect');
    await flush(1, 20);
    expect(router.state.location.pathname).toBe('/case-management');
    expect(host.querySelector('[data-testid="cases"]')).not.toBeNull();
    // Consumed once there: the next visit to the redirect screen goes to the usual start page (own space here,
    // where the menu grants no dashboard).
    expect(peekPendingRedirect('u1')).toBeNull();
    await act(() => router.navigate('/redirect'));
    await flush(1, 20);
    expect(router.state.location.pathname).toBe('/own-space');
  });
});
