import { getLive } from '../../../lib/live';

/** What the chat screen hears on the live socket (docs/architecture.md, "Events and live updates"). */
export type ChatSignal =
  | { type: 'message'; conversationCode: string; messageId: number; fromOrganization: string }
  | { type: 'read'; conversationCode: string; upTo: number; byOrganization: string }
  | { type: 'typing'; conversationCode: string; name: string; holdMs: number };

/**
 * The chat screen's part of the tab's one live socket (lib/live.ts): new messages and read marks arrive as events,
 * typing marks as signals. Without a socket (tests, a page outside the signed-in layout) nothing is heard.
 */
export function openChatLive(onSignal: (s: ChatSignal) => void) {
  const live = getLive();
  const stops = live
    ? [
        live.subscribe(['chat.message', 'chat.read'], (events) => {
          for (const ev of events) {
            if (ev.kind === 'chat.message')
              onSignal({
                type: 'message',
                conversationCode: String(ev.data.conversationCode),
                messageId: Number(ev.data.messageId),
                fromOrganization: String(ev.data.fromOrganization),
              });
            else
              onSignal({
                type: 'read',
                conversationCode: String(ev.data.conversationCode),
                upTo: Number(ev.data.upTo),
                byOrganization: String(ev.data.byOrganization),
              });
          }
        }),
        live.onSignal('chat.typing', (frame) =>
          onSignal({
            type: 'typing',
            conversationCode: String(frame.conversationCode),
            name: typeof frame.name === 'string' ? frame.name : '',
            holdMs: Number(frame.holdMs ?? 5_000),
          }),
        ),
      ]
    : [];

  return {
    /** Tells the other side the user is typing; dropped while the socket is down (a mark is not worth keeping). */
    typing(conversationCode: string) {
      live?.post({ t: 'chat.typing', conversationCode });
    },
    close() {
      stops.forEach((stop) => stop());
    },
  };
}
