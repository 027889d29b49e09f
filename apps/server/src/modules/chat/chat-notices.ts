import type { Db } from '../../platform/db.js';
import { t } from '../../platform/i18n.js';
import type { SmsSender } from '../../platform/sms.js';
import { plainSmsText } from '../../platform/sms-encoding.js';
import { EventsService } from '../events/events.service.js';
import { OrderNotifier } from '../orders/order-notifier.js';
import { chatRepository } from './chat.repository.js';

/** A user is online while a heartbeat of theirs is this recent (the live hub beats every 25 s): twice it, and some. */
export const ONLINE_WITHIN_SECONDS = 60;
const BATCH = 500;
/** An organization's name in a text message: at most this many characters, so the notice stays one or two SMS. */
const SMS_NAME_MAX = 40;

/**
 * Notices of unread chat messages (docs/product-decisions.md, "Chat"): a member who left the other side's messages
 * unread for the quiet period, and is not online, is told once per conversation, by their receiving type: a station
 * letter (the bell), or a text message to their phone (a station letter when they have none). Told again only of
 * messages that come after. Each notice is claimed in its own transaction, so two processes never send one twice.
 */
export class ChatNotices {
  constructor(
    private readonly db: Db,
    private readonly sms: SmsSender,
    private readonly quietMinutes: number,
    private readonly appName: string,
  ) {}

  /**
   * Sends the notices due at `now` (the database's clock when not given; tests pass a later one instead of
   * waiting for the quiet period); answers how many of each kind went out.
   */
  async run(now?: Date): Promise<{ letters: number; texts: number }> {
    const due = await chatRepository.noticesDue(this.db, this.quietMinutes * 60, ONLINE_WITHIN_SECONDS, BATCH, now);
    const sent = { letters: 0, texts: 0 };
    for (const d of due) {
      await this.db.transaction(async (tx) => {
        if (!(await chatRepository.claimNotice(tx, Number(d.conversation_id), Number(d.user_id), Number(d.newest))))
          return;
        const params = { organization: d.other_name, count: d.unread, conversation: d.code };
        if (d.receive === 'sms' && d.phone) {
          // The name on one line and short; the messages' own text never goes (it may name a patient).
          const organization = plainSmsText(d.other_name, SMS_NAME_MAX);
          const text = t(d.language, 'notice:chat.sms', { ...params, organization, appName: this.appName });
          await this.sms.store(tx, { to: d.phone, language: d.language, text });
          sent.texts += 1;
          return;
        }
        await OrderNotifier.chatLetter(tx, Number(d.user_id), Number(d.conversation_id), params);
        // The user's bell asks for its count again.
        await EventsService.record(tx, {
          organizationId: Number(d.organization_id),
          userId: Number(d.user_id),
          kind: 'notification',
          data: { event: 'chat' },
        });
        sent.letters += 1;
      });
    }
    return sent;
  }
}
