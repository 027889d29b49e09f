import type { ReactNode } from 'react';
import { notify } from './notify';

/** A themed confirmation for a destructive action (the app's modal API, so the dark theme applies). */
export function confirmDanger(opts: {
  title: ReactNode;
  content?: ReactNode;
  okText: string;
  cancelText: string;
  okTestId: string;
  onOk: () => Promise<unknown>;
}): void {
  void notify.modal().then((m) => {
    m?.confirm({
      title: opts.title,
      content: opts.content,
      okText: opts.okText,
      cancelText: opts.cancelText,
      okButtonProps: { danger: true, 'data-testid': opts.okTestId },
      onOk: opts.onOk,
    });
  });
}

/** A themed confirmation for an action that cannot be undone but destroys nothing (accepting, confirming receipt). */
export function confirmAction(opts: {
  title: ReactNode;
  content?: ReactNode;
  okText: string;
  cancelText: string;
  okTestId: string;
  onOk: () => Promise<unknown>;
}): void {
  void notify.modal().then((m) => {
    m?.confirm({
      title: opts.title,
      content: opts.content,
      okText: opts.okText,
      cancelText: opts.cancelText,
      okButtonProps: { 'data-testid': opts.okTestId },
      onOk: opts.onOk,
    });
  });
}
