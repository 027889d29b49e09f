import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { OrderMessage, OrderStatus, ToothItem } from '../api/types';
import { checkAttachments, MAX_ATTACHMENT_BYTES, threadOrder } from './attachments';
import { authorLine } from './author';
import { localToday } from '../../../lib/dates';
import { defaultRange, initialOrderListState, sortOrderOf, toOrderExportBody, toOrderListQuery } from './orderQuery';
import {
  allowedActions,
  changedMeanwhile,
  commonActions,
  currentSelection,
  failedResults,
  sideActions,
  sideOf,
} from './orderRules';
import { sameRules, setRuleField } from './requiredRules';
import {
  cleanTooth,
  copyToAll,
  itemsForTeeth,
  LOWER_TEETH,
  setToothValue,
  sortTeeth,
  toggleTooth,
  toothKind,
  UPPER_TEETH,
} from './teeth';

describe('order list query', () => {
  const now = dayjs('2025-06-15T10:00:00');
  it('defaults to the last N days, newest first', () => {
    const s = initialOrderListState(7, now);
    expect(toOrderListQuery(s)).toEqual({
      pageNum: 1,
      pageSize: 20,
      sortOrder: 'desc',
      dateFrom: '2025-06-08',
      dateTo: '2025-06-15',
    });
    expect(defaultRange(0, now)[0].format('YYYY-MM-DD')).toBe('2025-05-16');
  });
  it('maps the filters, dropping empty ones', () => {
    const s = initialOrderListState(30, now);
    const q = toOrderListQuery({
      ...s,
      pageNum: 2,
      sortOrder: 'asc',
      filters: { range: null, status: 'shipped', orderType: ' implant ', partnerCode: 'P1' },
    });
    expect(q).toEqual({
      pageNum: 2,
      pageSize: 20,
      sortOrder: 'asc',
      status: 'shipped',
      orderType: 'implant',
      partnerCode: 'P1',
    });
    // Late only: the orders late on the reader's today.
    expect(toOrderListQuery({ ...s, filters: { range: null, lateOnly: true } }).lateOn).toBe(localToday());
    expect(toOrderListQuery({ ...s, filters: { range: null, lateOnly: false } })).not.toHaveProperty('lateOn');
    expect(toOrderListQuery({ ...s, filters: { range: null, orderType: '  ', partnerCode: '' } })).toEqual({
      pageNum: 1,
      pageSize: 20,
      sortOrder: 'desc',
    });
  });
  it('exports the same filters without paging', () => {
    const s = { ...initialOrderListState(30, now), pageNum: 4, filters: { range: null, status: 'pending' as const } };
    expect(toOrderExportBody(s, 'csv')).toEqual({ sortOrder: 'desc', status: 'pending', format: 'csv' });
  });
  it('maps the table sort', () => {
    expect(sortOrderOf('ascend')).toBe('asc');
    expect(sortOrderOf('descend')).toBe('desc');
    expect(sortOrderOf(null)).toBe('desc');
  });
});

describe('order rules', () => {
  it('knows the side by organization type', () => {
    expect(sideOf(2)).toBe('clinic');
    expect(sideOf(3)).toBe('lab');
    expect(sideOf(4)).toBeNull();
    expect(sideOf(undefined)).toBeNull();
  });
  it('lists each side’s actions in workflow order', () => {
    expect(sideActions('lab')).toEqual(['accept', 'startProcessing', 'ready', 'ship', 'reject']);
    expect(sideActions('clinic')).toEqual(['cancel', 'complete']);
  });
  it('allows what the state machine allows', () => {
    expect(allowedActions({ status: 'pending', processing: false }, 'lab')).toEqual(['accept', 'reject']);
    expect(allowedActions({ status: 'accepted', processing: false }, 'lab')).toEqual(['startProcessing', 'ready']);
    expect(allowedActions({ status: 'accepted', processing: true }, 'lab')).toEqual(['ready']);
    expect(allowedActions({ status: 'pending', processing: false }, 'clinic')).toEqual(['cancel']);
    expect(allowedActions({ status: 'shipped', processing: true }, 'clinic')).toEqual(['complete']);
    expect(allowedActions({ status: 'completed', processing: true }, 'lab')).toEqual([]);
  });
  it('offers a batch action only when every selected order allows it', () => {
    const pending = { status: 'pending' as const, processing: false };
    const ready = { status: 'ready' as const, processing: true };
    expect(commonActions([pending, pending], 'lab')).toEqual(['accept', 'reject']);
    expect(commonActions([pending, ready], 'lab')).toEqual([]);
    expect(commonActions([ready], 'lab')).toEqual(['ship']);
    expect(commonActions([], 'lab')).toEqual([]);
  });
  it('picks the failed results', () => {
    const res = {
      results: [
        { orderCode: 'A', ok: true, code: 200, msg: 'ok' },
        { orderCode: 'B', ok: false, code: 2035, msg: 'no' },
      ],
    };
    expect(failedResults(res)).toEqual([{ orderCode: 'B', ok: false, code: 2035, msg: 'no' }]);
  });
  it('tell a refusal because the order moved meanwhile (2035) from other refusals', () => {
    expect(changedMeanwhile([{ code: 404 }, { code: 2035 }])).toBe(true);
    expect(changedMeanwhile([{ code: 404 }, { code: 1002 }])).toBe(false);
    expect(changedMeanwhile([])).toBe(false);
  });
  it('judge a selection by the rows as fetched now, so the batch buttons follow the current statuses', () => {
    type Row = { orderCode: string; status: OrderStatus; processing: boolean };
    const picked: Row[] = [
      { orderCode: 'A', status: 'pending', processing: false },
      { orderCode: 'B', status: 'pending', processing: false },
    ];
    // A was accepted by the laboratory since it was selected; B is on another page now and stays as selected.
    const rows: Row[] = [{ orderCode: 'A', status: 'accepted', processing: false }];
    const now = currentSelection(picked, rows);
    expect(now.map((o) => o.status)).toEqual(['accepted', 'pending']);
    expect(commonActions(picked, 'clinic')).toEqual(['cancel']);
    expect(commonActions(now, 'clinic')).toEqual([]);
  });
});

describe('teeth', () => {
  it('draws 32 distinct adult teeth', () => {
    expect(new Set([...UPPER_TEETH, ...LOWER_TEETH]).size).toBe(32);
    expect(UPPER_TEETH[0]).toBe(18);
    expect(LOWER_TEETH.at(-1)).toBe(38);
  });
  it('sorts in chart order and toggles', () => {
    expect(sortTeeth([21, 11, 48, 18, 11, 99])).toEqual([18, 11, 21, 48]);
    expect(toggleTooth([11], 21)).toEqual([11, 21]);
    expect(toggleTooth([11, 21], 11)).toEqual([21]);
  });
  it('tells the tooth kind', () => {
    expect([toothKind(18), toothKind(15), toothKind(13), toothKind(41)]).toEqual([
      'molar',
      'premolar',
      'canine',
      'incisor',
    ]);
  });
  it('keeps what was entered for teeth still chosen', () => {
    const items: ToothItem[] = [{ number: 11, shade: 'A2' }, { number: 21 }];
    expect(itemsForTeeth(items, [21, 12, 11])).toEqual([{ number: 12 }, { number: 11, shade: 'A2' }, { number: 21 }]);
    expect(setToothValue(items, 21, 'material', 'Zirconia')[1]).toEqual({ number: 21, material: 'Zirconia' });
  });
  it('copies one prescription to all teeth, keeping their numbers and places (implant, bridge unit)', () => {
    const items: ToothItem[] = [
      { number: 11, shade: 'A2', method: 'screwRetained' },
      { number: 21, shade: 'B1', implant: true },
    ];
    expect(copyToAll(items, 11)).toEqual([
      { number: 11, shade: 'A2', method: 'screwRetained' },
      { number: 21, shade: 'A2', method: 'screwRetained', implant: true },
    ]);
  });
  it('cleans items for sending', () => {
    expect(
      cleanTooth({
        number: 11,
        shade: ' A2 ',
        material: '  ',
        crownType: '',
        implant: false,
        inlayCore: true,
        method: 'customAbutment',
      }),
    ).toEqual({
      number: 11,
      shade: 'A2',
      method: 'customAbutment',
      inlayCore: true,
    });
  });
});

describe('attachments and thread', () => {
  const file = (name: string) => new File([], name);
  it('refuses unknown formats and files over 20 MB before uploading', () => {
    const big = file('big.pdf');
    Object.defineProperty(big, 'size', { value: MAX_ATTACHMENT_BYTES + 1 });
    const r = checkAttachments([file('photo.JPG'), file('notes.docx'), big, file('noext')]);
    expect(r.ok.map((f) => f.name)).toEqual(['photo.JPG']);
    expect(r.badFormat.map((f) => f.name)).toEqual(['notes.docx', 'noext']);
    expect(r.tooLarge.map((f) => f.name)).toEqual(['big.pdf']);
  });
  it('shows the thread oldest first, once per message', () => {
    const m = (id: number): OrderMessage => ({
      id,
      content: `m${id}`,
      attachments: [],
      senderName: 'A',
      senderOrganization: 'O',
      mine: false,
      createdAt: '',
    });
    expect(threadOrder([{ list: [m(5), m(4)] }, { list: [m(4), m(3)] }]).map((x) => x.id)).toEqual([3, 4, 5]);
  });
});

describe('required field rules', () => {
  it('adds and removes fields in catalogue order, dropping empty rules', () => {
    let rules = setRuleField([], 'Veneer', 'material', true);
    rules = setRuleField(rules, 'Crown', 'material', true);
    rules = setRuleField(rules, 'Crown', 'shade', true);
    expect(rules).toEqual([
      { workType: 'Crown', fields: ['shade', 'material'] },
      { workType: 'Veneer', fields: ['material'] },
    ]);
    expect(setRuleField(rules, 'Veneer', 'material', false)).toEqual([
      { workType: 'Crown', fields: ['shade', 'material'] },
    ]);
  });
  it('compares rule sets regardless of order', () => {
    expect(
      sameRules(
        [{ workType: 'Crown', fields: ['material', 'shade'] }],
        [{ workType: 'Crown', fields: ['shade', 'material'] }],
      ),
    ).toBe(true);
    expect(sameRules([{ workType: 'Crown', fields: ['shade'] }], [])).toBe(false);
  });
});

describe('authorLine', () => {
  it('names the person and their organization', () => {
    expect(authorLine('Anna Berg', 'Smile Clinic', 'Former user')).toBe('Anna Berg · Smile Clinic');
  });
  it('says the organization once when the person carries its name', () => {
    expect(authorLine('Smile Clinic', 'Smile Clinic', 'Former user')).toBe('Smile Clinic');
    expect(authorLine(' smile clinic ', 'Smile Clinic', 'Former user')).toBe('Smile Clinic');
  });
  it('shows a deleted user as a former user of the organization', () => {
    expect(authorLine(null, 'Alpha Lab', 'Former user')).toBe('Former user · Alpha Lab');
    expect(authorLine('', null, 'Former user')).toBe('');
  });
});
