import { describe, expect, it } from 'vitest';
import { localToday } from '../../../lib/dates';
import { orderListCodec } from './orderQuery';

describe('the order list in the address', () => {
  it('reads "late only" as late on the reader’s today', () => {
    const orders = orderListCodec(30);
    const state = orders.read(new URLSearchParams('lateOn=2020-01-01&status=accepted&partnerCode=p1'));
    expect(state.filters).toMatchObject({ lateOnly: true, status: 'accepted', partnerCode: 'p1' });
    expect(orders.write(state).get('lateOn')).toBe(localToday());
    expect(orders.read(new URLSearchParams('status=bogus'))).toMatchObject({ filters: { status: undefined } });
  });
});
