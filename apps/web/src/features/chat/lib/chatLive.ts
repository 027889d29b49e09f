import { appConfigStore } from '../../../lib/appConfig';
import { tokens } from '../../../lib/tokens';

/** What the chat screen hears on the live socket (docs/architecture.md, "Events and live updates"). */
export type ChatSignal =
  | { type: 'message'; conversationCode: string; messageId: number; fromOrganization: string }
  | { type: 'read'; conversationCode: string; upTo: number; byOrganization: string }
  | { type: 'typing'; conversationCode: string; name: string; holdMs: number };

const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * A minimal subscription to the live socket for the chat screen alone, in the protocol of live-hub.ts: the token as
 * the first frame, events and typing marks after it, reconnection with growing pauses. Meant to be swapped for the
 * app-wide live helper once there is one.
 */
export function openChatLive(onSignal: (s: ChatSignal) => void) {
  let ws: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    const endpoint = appConfigStore.get()?.wsEndpoint;
    if (stopped || !endpoint || typeof WebSocket === 'undefined') return;
    const socket = new WebSocket(endpoint);
    ws = socket;
    socket.onopen = () => socket.send(JSON.stringify({ t: 'auth', token: tokens.access() }));
    socket.onmessage = (e) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(String(e.data)) as Record<string, unknown>;
      } catch {
        return;
      }
      if (frame.t === 'ready') attempt = 0;
      else if (frame.t === 'chat.typing')
        onSignal({
          type: 'typing',
          conversationCode: String(frame.conversationCode),
          name: typeof frame.name === 'string' ? frame.name : '',
          holdMs: Number(frame.holdMs ?? 5_000),
        });
      else if (frame.t === 'events' && Array.isArray(frame.list))
        for (const ev of frame.list as Array<{ kind: string; data: Record<string, unknown> }>) {
          if (ev.kind === 'chat.message')
            onSignal({
              type: 'message',
              conversationCode: String(ev.data.conversationCode),
              messageId: Number(ev.data.messageId),
              fromOrganization: String(ev.data.fromOrganization),
            });
          else if (ev.kind === 'chat.read')
            onSignal({
              type: 'read',
              conversationCode: String(ev.data.conversationCode),
              upTo: Number(ev.data.upTo),
              byOrganization: String(ev.data.byOrganization),
            });
        }
    };
    socket.onclose = () => {
      if (ws === socket) ws = null;
      if (stopped) return;
      timer = setTimeout(connect, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      attempt += 1;
    };
  };
  connect();

  return {
    /** Tells the other side the user is typing; dropped while the socket is down (a mark is not worth keeping). */
    typing(conversationCode: string) {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ t: 'chat.typing', conversationCode }));
    },
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      ws?.close();
    },
  };
}
