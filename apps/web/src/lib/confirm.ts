import type { ReactNode } from 'react';
import { notify } from './notify';

export interface ConfirmOptions {
  title: ReactNode;
  content?: ReactNode;
  okText: string;
  cancelText: string;
  okTestId: string;
  onOk: () => Promise<unknown>;
}

/** The app's modal API (so the theme applies); a danger button for what destroys something. */
function confirm(opts: ConfirmOptions, danger: boolean): void {
  void notify.modal().then((m) => {
    m?.confirm({
      title: opts.title,
      content: opts.content,
      okText: opts.okText,
      cancelText: opts.cancelText,
      okButtonProps: { danger, 'data-testid': opts.okTestId },
      onOk: opts.onOk,
    });
  });
}

/** A confirmation for a destructive action (deleting, revoking, disabling). */
export const confirmDanger = (opts: ConfirmOptions): void => confirm(opts, true);

/** A confirmation for an action that cannot be undone but destroys nothing (accepting, confirming receipt). */
export const confirmAction = (opts: ConfirmOptions): void => confirm(opts, false);
