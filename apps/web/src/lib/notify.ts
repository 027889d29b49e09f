import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/**
 * Themed message and modal APIs for code outside React (http client, session, start-up).
 * The antd parts are loaded on first use, so they stay out of the login page's first load:
 * the app mounts a host that calls `mountBridge` lazily; the bridge then registers the APIs.
 */
interface Apis {
  message: MessageInstance;
  modal: ModalHookAPI;
}
let apis: Apis | null = null;
let mountBridge: (() => void) | null = null;
const waiting: ((a: Apis) => void)[] = [];

export function registerNotifierHost(mount: (() => void) | null) {
  mountBridge = mount;
}

export function registerNotifier(message: MessageInstance, modal: ModalHookAPI) {
  apis = { message, modal };
  waiting.splice(0).forEach((fn) => fn(apis!));
}

function withApis(fn: (a: Apis) => void) {
  if (apis) return fn(apis);
  if (!mountBridge) return;
  waiting.push(fn);
  mountBridge();
}

export const notify = {
  error(text: string, durationSeconds?: number) {
    if (!mountBridge && !apis) console.error(text);
    withApis((a) => void a.message.error(text, durationSeconds));
  },
  success(text: string) {
    withApis((a) => void a.message.success(text));
  },
  info(text: string) {
    withApis((a) => void a.message.info(text));
  },
  /** The modal API once loaded; null when no app is mounted. */
  modal(): Promise<ModalHookAPI | null> {
    if (apis) return Promise.resolve(apis.modal);
    if (!mountBridge) return Promise.resolve(null);
    return new Promise((resolve) => withApis((a) => resolve(a.modal)));
  },
};
