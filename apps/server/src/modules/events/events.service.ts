import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../platform/db.js';
import { eventsRepository, type EventRow, type NewEvent } from './events.repository.js';

export type { EventRow, NewEvent };

/** How long events are kept: a client that was away longer refetches what it shows (docs/architecture.md). */
export const EVENT_RETENTION_DAYS = 7;
/** An event's data stays small: codes, statuses and counts (NOTIFY carries positions only; the rest is read). */
const DATA_MAX_CHARS = 2_000;
const BATCH = 2_000;
/** Positions are given again this often even without a notification (one lost between commit and listener). */
const SWEEP_MS = 2_000;

/**
 * The events module (DESIGN §7): services record what changed in the transaction that changes it; after the commit
 * every process gives committed events their positions (in commit order, one process at a time) and reads what was
 * positioned, in order, for its sockets. Sockets, the timeline and webhooks read the same rows.
 */
export class EventsService {
  /** Records events in the caller's transaction: nothing is sent unless it commits. */
  static async record(tx: Queryable, events: NewEvent | NewEvent[]) {
    const list = Array.isArray(events) ? events : [events];
    if (!list.length) return;
    for (const e of list) {
      if (JSON.stringify(e.data ?? {}).length > DATA_MAX_CHARS) throw new Error(`event ${e.kind}: data too large`);
    }
    await eventsRepository.insert(tx, list);
  }
}

type Reader = (events: EventRow[]) => void;

/**
 * This process's end of the stream: one LISTEN connection (the database's), a position giver woken by commits, and a
 * reader that hands every newly positioned event, in order, to its subscribers (the sockets). After the listener
 * reconnects it reads from where it was, so nothing sent meanwhile is lost.
 */
export class EventStream {
  private last = 0;
  private readers = new Set<Reader>();
  private positioning: Promise<void> | undefined;
  private positionAgain = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: Array<() => Promise<void>> = [];
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The highest position read so far: a new socket resumes from it when it brings none. */
  get position() {
    return this.last;
  }

  async start() {
    this.last = (await eventsRepository.bounds(this.db)).last;
    this.unlisten.push(await this.db.listen('events_written', () => void this.givePositions()));
    // An empty payload is the listener's reconnection: read whatever was positioned meanwhile.
    this.unlisten.push(await this.db.listen('events_positioned', () => void this.read()));
    this.timer = setInterval(() => {
      void this.givePositions();
      void this.read();
    }, SWEEP_MS);
    this.timer.unref();
    void this.givePositions();
  }

  subscribe(reader: Reader): () => void {
    this.readers.add(reader);
    return () => this.readers.delete(reader);
  }

  /** Gives waiting events their positions; runs once at a time here, again if woken meanwhile. */
  givePositions(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.positioning) {
      this.positionAgain = true;
      return this.positioning;
    }
    this.positioning = (async () => {
      do {
        this.positionAgain = false;
        try {
          // A full batch may have left more waiting.
          while ((await this.db.transaction((tx) => eventsRepository.position(tx, BATCH))) === BATCH && !this.stopped);
        } catch (err) {
          if (!this.stopped) this.log.error({ err }, 'events: giving positions failed');
        }
      } while (this.positionAgain && !this.stopped);
    })().finally(() => (this.positioning = undefined));
    return this.positioning;
  }

  /** Reads what was positioned after the last read, in order, and hands it to the subscribers. */
  read(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        try {
          for (;;) {
            const rows = await eventsRepository.after(this.db, this.last, BATCH);
            if (!rows.length) break;
            this.last = Number(rows[rows.length - 1]!.position);
            for (const reader of this.readers) {
              try {
                reader(rows);
              } catch (err) {
                this.log.error({ err }, 'events: a subscriber failed');
              }
            }
            if (rows.length < BATCH) break;
          }
        } catch (err) {
          if (!this.stopped) this.log.error({ err }, 'events: reading failed');
        }
      } while (this.readAgain && !this.stopped);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** What a member missed since a position, or 'reset' when events they missed are no longer kept. */
  async missed(organizationId: number, userId: number, after: number, limit: number) {
    const { first, last } = await eventsRepository.bounds(this.db);
    if (after > last || after < first - 1) return 'reset' as const;
    const rows = await eventsRepository.missed(this.db, organizationId, userId, after, limit + 1);
    if (rows.length > limit) return 'reset' as const;
    return rows;
  }

  /** Forgets events older than the retention (housekeeping). */
  cleanup() {
    return eventsRepository.deleteBefore(this.db, new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000));
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const u of this.unlisten) await u().catch(() => undefined);
    await Promise.allSettled([this.positioning, this.reading]);
  }
}
