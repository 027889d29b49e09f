import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@portal/contracts';
import { halfChecked, toggle } from './menuChecks';

const node = (code: string, children: MenuNode[] = [], type: 1 | 2 = 1): MenuNode => ({
  code,
  name: `menu.${code}`,
  type,
  apiPermissions: [],
  children,
});
const TREE = [
  node('dashboard'),
  node('orders', [node('orderDetail'), node('orders.ship', [], 2), node('orders.accept', [], 2)]),
];

describe('ticking a role menu', () => {
  it('a button ticks its screen; the screen alone leaves the buttons as they are', () => {
    expect([...toggle(TREE, new Set(), 'orders.ship', true)].sort()).toEqual(['orders', 'orders.ship']);
    expect([...toggle(TREE, new Set(), 'orders', true)]).toEqual(['orders']);
  });

  it('unticking a screen unticks what lies under it', () => {
    const all = new Set(['orders', 'orderDetail', 'orders.ship', 'dashboard']);
    expect([...toggle(TREE, all, 'orders', false)]).toEqual(['dashboard']);
  });

  it('shows a screen half-checked when only some of what lies under it is ticked', () => {
    expect(halfChecked(TREE, new Set(['orders', 'orders.ship']))).toEqual(['orders']);
    expect(halfChecked(TREE, new Set(['orders', 'orderDetail', 'orders.ship', 'orders.accept']))).toEqual([]);
    expect(halfChecked(TREE, new Set(['dashboard']))).toEqual([]);
  });
});
