// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { MenuItem, UserInfo } from '@portal/contracts';
import { sessionStore, setProfile } from './session';

const user = { userCode: 'u1' } as UserInfo;
const menu = (name: string) => [{ code: 'cases', name, children: [] }] as unknown as MenuItem[];

describe('the session profile', () => {
  it('keeps the menu object when a reload brings the same menu, and takes a changed one', () => {
    setProfile(user, menu('Cases'), ['case:view']);
    const first = sessionStore.get().menus;
    // The same menu again (a reload when the tab comes back): the router built from it stays.
    setProfile(user, menu('Cases'), ['case:view', 'case:edit']);
    expect(sessionStore.get().menus).toBe(first);
    expect(sessionStore.get().permissions).toEqual(['case:view', 'case:edit']);
    // A changed menu (a role change): a new object, so the routes are built again.
    setProfile(user, menu('Case files'), ['case:view']);
    expect(sessionStore.get().menus).not.toBe(first);
    expect(sessionStore.get().menus).toEqual(menu('Case files'));
  });
});
