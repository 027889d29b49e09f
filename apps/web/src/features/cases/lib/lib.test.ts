import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { ageInYears } from './age';
import { columnSortOrder, defaultRange, initialListState, sorterToSort, toCaseListQuery } from './caseQuery';
import { exportMessageKey, isExportRunning } from './exportState';
import { formatOfName, isFinalUploadStatus, isModelName, uploadFailure } from './upload';

describe('ageInYears', () => {
  const today = dayjs('2025-06-15');
  it('counts whole years, the birthday itself included', () => {
    expect(ageInYears('2000-06-15', today)).toBe(25);
    expect(ageInYears('2000-06-16', today)).toBe(24);
    expect(ageInYears('2000-01-01', today)).toBe(25);
    expect(ageInYears('2000-12-31', today)).toBe(24);
    expect(ageInYears('2025-06-15', today)).toBe(0);
  });
  it('gives null for missing, invalid or future dates', () => {
    expect(ageInYears(null, today)).toBeNull();
    expect(ageInYears('', today)).toBeNull();
    expect(ageInYears('abc', today)).toBeNull();
    expect(ageInYears('2000-13-01', today)).toBeNull();
    expect(ageInYears('2030-01-01', today)).toBeNull();
  });
});

describe('case list query', () => {
  const now = dayjs('2025-06-15T10:00:00');
  it('defaults to the last N days', () => {
    const [from, to] = defaultRange(30, now);
    expect(from.format('YYYY-MM-DD')).toBe('2025-05-16');
    expect(to.format('YYYY-MM-DD')).toBe('2025-06-15');
    expect(defaultRange(-1, now)[0].format('YYYY-MM-DD')).toBe('2025-05-16');
  });
  it('maps filters, dropping empty ones', () => {
    const s = initialListState(30, now);
    expect(toCaseListQuery(s)).toEqual({
      pageNum: 1,
      pageSize: 20,
      sortField: 'scanDate',
      sortOrder: 'desc',
      dateFrom: '2025-05-16',
      dateTo: '2025-06-15',
    });
    const q = toCaseListQuery({
      ...s,
      pageNum: 3,
      sortField: 'patientName',
      sortOrder: 'asc',
      filters: { range: null, status: 'uploaded', treatment: 'Crown', dentistId: 7, keyword: '  Smith ' },
    });
    expect(q).toEqual({
      pageNum: 3,
      pageSize: 20,
      sortField: 'patientName',
      sortOrder: 'asc',
      status: 'uploaded',
      treatment: 'Crown',
      dentistId: 7,
      keyword: 'Smith',
    });
    expect(toCaseListQuery({ ...s, filters: { range: null, keyword: '   ', status: '' } })).not.toHaveProperty(
      'keyword',
    );
  });
  it('maps the table sorter', () => {
    expect(sorterToSort('name', 'ascend')).toEqual({ sortField: 'name', sortOrder: 'asc' });
    expect(sorterToSort('createdAt', 'descend')).toEqual({ sortField: 'createdAt', sortOrder: 'desc' });
    expect(sorterToSort('name', null)).toEqual({ sortField: 'scanDate', sortOrder: 'desc' });
    expect(sorterToSort('bogus', 'ascend')).toEqual({ sortField: 'scanDate', sortOrder: 'desc' });
    expect(columnSortOrder({ sortField: 'name', sortOrder: 'asc' }, 'name')).toBe('ascend');
    expect(columnSortOrder({ sortField: 'name', sortOrder: 'asc' }, 'scanDate')).toBeNull();
  });
});

describe('uploads', () => {
  it('recognises accepted formats by extension', () => {
    expect(formatOfName('Upper.STL')).toBe('stl');
    expect(formatOfName('scan.jpeg')).toBe('jpeg');
    expect(formatOfName('notes.docx')).toBeNull();
    expect(formatOfName('noext')).toBeNull();
    expect(isModelName('a.ply')).toBe(true);
    expect(isModelName('a.png')).toBe(false);
  });
  it('prefers the server message, else maps the status', () => {
    expect(
      uploadFailure(507, JSON.stringify({ code: 2022, msg: 'Insufficient storage space. Free up some space.' })),
    ).toEqual({
      msg: 'Insufficient storage space. Free up some space.',
    });
    expect(uploadFailure(413, '')).toEqual({ key: 'upload.error.tooLarge' });
    expect(uploadFailure(415, 'not json')).toEqual({ key: 'upload.error.format' });
    expect(uploadFailure(507, null)).toEqual({ key: 'upload.error.storage' });
    expect(uploadFailure(0, null)).toEqual({ key: 'upload.error.generic' });
    expect(uploadFailure(413, JSON.stringify({ code: 413, msg: '' }))).toEqual({ key: 'upload.error.tooLarge' });
  });
  it('does not retry final refusals', () => {
    expect(isFinalUploadStatus(413)).toBe(true);
    expect(isFinalUploadStatus(507)).toBe(true);
    expect(isFinalUploadStatus(500)).toBe(false);
  });
});

describe('export state', () => {
  it('polls while default or packing and names the failures', () => {
    expect(isExportRunning(0)).toBe(true);
    expect(isExportRunning(5)).toBe(true);
    expect(isExportRunning(1)).toBe(false);
    expect(exportMessageKey(2)).toBe('export.fail');
    expect(exportMessageKey(3)).toBe('export.noFile');
    expect(exportMessageKey(4)).toBe('export.noRequiredFile');
    expect(exportMessageKey(1)).toBeNull();
  });
});
