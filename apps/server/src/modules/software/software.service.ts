import {
  USAGE_LOAD_MS_MAX,
  type SaveUpdateLogBody,
  type UpdateLogAdminPage,
  type UpdateLogDetail,
  type UpdateLogEntry,
  type UpdateLogMark,
  type UpdateLogPage,
  type UsageEvent,
  type UsageWeekly,
  type Language,
} from '@portal/contracts';
import type { Db } from '../../platform/db.js';
import { fail, invalidField } from '../../platform/errors.js';
import { UsersService } from '../users/users.service.js';
import { softwareRepository as repo, type EntryRow, type UsageCount } from './software.repository.js';

const summary = (r: EntryRow) => ({
  id: Number(r.id),
  version: r.version,
  releaseDate: r.release_date,
  language: r.language as Language,
  title: r.title,
});

/** The update log, the "what's new" mark and the improvement programme's anonymous usage counts. */
export class SoftwareService {
  constructor(private readonly db: Db) {}

  async list(language: Language, pageNum: number, pageSize: number): Promise<UpdateLogPage> {
    const { total, rows } = await repo.page(this.db, language, pageSize, (pageNum - 1) * pageSize);
    return { total, list: rows.map(summary) };
  }

  async entry(id: number, language: Language): Promise<UpdateLogEntry> {
    const row = await repo.find(this.db, id, language);
    if (!row) fail('NOT_FOUND');
    return { ...summary(row), html: row.html };
  }

  async adminList(pageNum: number, pageSize: number): Promise<UpdateLogAdminPage> {
    const { total, rows } = await repo.adminPage(this.db, pageSize, (pageNum - 1) * pageSize);
    return { total, list: rows.map((r) => ({ ...summary(r), languages: r.languages as Language[] })) };
  }

  async detail(id: number): Promise<UpdateLogDetail> {
    const entry = await repo.entry(this.db, id);
    if (!entry) fail('NOT_FOUND');
    const texts = await repo.texts(this.db, id);
    return {
      id: Number(entry.id),
      version: entry.version,
      releaseDate: entry.release_date,
      updatedAt: new Date(entry.updated_at).toISOString(),
      texts: texts.map((t) => ({ ...t, language: t.language as Language })),
    };
  }

  /** Renders and sanitizes each language's Markdown once, here; readers get the stored HTML. */
  async save(body: SaveUpdateLogBody): Promise<UpdateLogDetail> {
    // Loaded on the first save: the Markdown renderer and sanitizer are not needed to start the portal.
    const { renderMarkdown } = await import('./markdown.js');
    const texts = Object.entries(body.texts)
      .filter(([, text]) => text !== undefined)
      .map(([language, text]) => ({ language, ...text, html: renderMarkdown(text.markdown) }));
    const id = await this.db.transaction(async (tx) => {
      let entryId = body.id;
      if (entryId === undefined) entryId = await repo.insert(tx, body.version, body.releaseDate);
      else if (!(await repo.update(tx, entryId, body.version, body.releaseDate))) fail('NOT_FOUND');
      await repo.replaceTexts(tx, entryId, texts);
      return entryId;
    });
    return this.detail(id);
  }

  async delete(ids: number[]): Promise<number> {
    return repo.delete(this.db, ids);
  }

  async mark(userId: number): Promise<UpdateLogMark> {
    return repo.mark(this.db, userId);
  }

  async read(userId: number, entryId: number): Promise<UpdateLogMark> {
    if (!(await repo.markRead(this.db, userId, entryId))) fail('NOT_FOUND');
    return repo.mark(this.db, userId);
  }

  async setImprovementPlan(userId: number, participating: boolean): Promise<{ improvementPlan: boolean }> {
    await UsersService.setImprovementPlan(this.db, userId, participating);
    return { improvementPlan: participating };
  }

  /**
   * Counts a batch from a participating user's browser into the week's totals. Who sent it is not kept: the
   * counts are summed per screen, kind and action before they reach the database.
   */
  async recordUsage(participating: boolean, events: UsageEvent[]): Promise<number> {
    if (!participating) fail('IMPROVEMENT_PLAN_NOT_JOINED');
    events.forEach((e, i) => {
      if (e.kind === 'action' && !e.action) invalidField(`events.${i}.action`, 'paramInvalid');
    });
    const counts = new Map<string, UsageCount>();
    for (const e of events) {
      const action = e.kind === 'action' ? e.action! : '';
      const key = `${e.screen}\n${e.kind}\n${action}`;
      const count = counts.get(key) ?? {
        screen: e.screen,
        kind: e.kind,
        action,
        events: 0,
        loadMsTotal: 0,
        loadSamples: 0,
      };
      count.events += 1;
      if (e.kind === 'screen' && e.loadMs !== undefined) {
        count.loadMsTotal += Math.min(e.loadMs, USAGE_LOAD_MS_MAX);
        count.loadSamples += 1;
      }
      counts.set(key, count);
    }
    await repo.addUsage(this.db, [...counts.values()]);
    return events.length;
  }

  async weekly(weeks: number, screen: string | undefined): Promise<UsageWeekly> {
    const rows = await repo.weekly(this.db, weeks, screen ?? null);
    return {
      list: rows.map((r) => ({
        weekStart: r.week_start,
        screen: r.screen,
        screenOpens: Number(r.screen_opens ?? 0),
        actions: Number(r.actions ?? 0),
        averageLoadMs: r.average_load_ms === null ? null : Number(r.average_load_ms),
      })),
    };
  }
}
