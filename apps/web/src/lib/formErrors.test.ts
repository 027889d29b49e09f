import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormInstance } from 'antd';
import { ERRORS } from '@portal/contracts';
import { ApiError, CLIENT_CODES } from './http';
import { notify } from './notify';
import { showSubmitError } from './formErrors';

// The form's side as a stand-in: which fields it has, and what is written under them.
function fakeForm(fields: string[]) {
  const setFields = vi.fn();
  const form = {
    setFields,
    scrollToField: vi.fn(),
    getFieldsValue: () => Object.fromEntries(fields.map((f) => [f, ''])),
    getFieldInstance: () => undefined,
  } as unknown as FormInstance;
  return { form, setFields };
}
const toast = vi.spyOn(notify, 'error').mockImplementation(() => {});
afterEach(() => toast.mockClear());

describe('a refused submission', () => {
  it('is written under the field it names, without a message', () => {
    const { form, setFields } = fakeForm(['account', 'phone']);
    showSubmitError(
      form,
      new ApiError(ERRORS.PHONE_TAKEN.code, 'The phone number is already in use', { field: 'phone' }),
    );
    expect(setFields).toHaveBeenCalledWith([{ name: 'phone', errors: [expect.any(String)] }]);
    expect(toast).not.toHaveBeenCalled();
  });

  it('is a message when it names no field of this form, or none', () => {
    const { form, setFields } = fakeForm(['account']);
    showSubmitError(form, new ApiError(ERRORS.PHONE_TAKEN.code, 'taken', { field: 'phone' }));
    showSubmitError(form, new ApiError(ERRORS.INTERNAL.code, 'Something went wrong'));
    expect(setFields).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledTimes(2);
  });

  it('adds nothing to what the http client already showed', () => {
    const { form, setFields } = fakeForm(['account']);
    showSubmitError(form, new ApiError(CLIENT_CODES.network, 'offline'));
    showSubmitError(form, new ApiError(ERRORS.SESSION_ENDED.code, 'signed out', { field: 'account' }));
    expect(setFields).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
  });
});
