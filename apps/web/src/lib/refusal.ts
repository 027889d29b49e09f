import { ERRORS } from '@portal/contracts';
import { i18next } from './i18n';
import { notify } from './notify';

/** A call refused for want of a permission (1002). */
export const isRefusal = (err: unknown): boolean =>
  (err as { code?: unknown } | null | undefined)?.code === ERRORS.NO_PERMISSION.code;

/**
 * An action's own answer to a refusal. The generic display stays silent for 1002 (§8): a read in the background
 * that is refused says nothing, but a click that did nothing must say why. True when it spoke, so the handler can
 * leave out its own message.
 */
export function sayIfRefused(err: unknown): boolean {
  if (!isRefusal(err)) return false;
  void i18next.loadNamespaces('access').then(() => notify.error(i18next.t('access:refusedAction')));
  return true;
}
