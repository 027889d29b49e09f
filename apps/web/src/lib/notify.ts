import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/**
 * The themed message and modal APIs of antd's <App>, registered once it renders,
 * so non-React code (http client, session) can show feedback in the current theme and locale.
 */
let messageApi: MessageInstance | null = null;
let modalApi: ModalHookAPI | null = null;

export function registerNotifier(message: MessageInstance, modal: ModalHookAPI) {
  messageApi = message;
  modalApi = modal;
}

export const notify = {
  error(text: string, durationSeconds?: number) {
    if (messageApi) void messageApi.error(text, durationSeconds);
    else console.error(text);
  },
  success(text: string) {
    if (messageApi) void messageApi.success(text);
  },
  info(text: string) {
    if (messageApi) void messageApi.info(text);
  },
  modal(): ModalHookAPI | null {
    return modalApi;
  },
};
