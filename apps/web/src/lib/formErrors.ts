import type { FormInstance } from 'antd';
import { ERRORS, LOGOUT_ERROR_CODES } from '@portal/contracts';
import { ApiError, errorText } from './http';
import { notify } from './notify';

/** Refusals the http client answers itself even for a silent call: transport failures, sign-outs, another region. */
function shownByClient(err: ApiError): boolean {
  return err.code < 0 || LOGOUT_ERROR_CODES.includes(err.code) || err.code === ERRORS.REGION_MISMATCH.code;
}

/**
 * Shows a refused submission where it belongs, once: a refusal that names one of the form's fields (a phone number
 * another account has, a value the server finds invalid) is written under that field; any other is a message. For
 * calls made with `silent: true`, so the http client adds no second message.
 */
export function showSubmitError(form: FormInstance, err: unknown): void {
  if (!(err instanceof ApiError)) {
    notify.error(err instanceof Error ? err.message : String(err));
    return;
  }
  if (shownByClient(err)) return;
  const text = errorText(err.code, err.msg) ?? err.msg;
  const field = (err.data as { field?: unknown } | null)?.field;
  const known =
    typeof field === 'string' && (field in form.getFieldsValue(true) || form.getFieldInstance(field) !== undefined);
  if (known) {
    form.setFields([{ name: field, errors: [text] }]);
    form.scrollToField(field);
  } else {
    notify.error(text);
  }
}
