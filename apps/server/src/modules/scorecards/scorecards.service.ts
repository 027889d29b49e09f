import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { sideOf } from '../orders/orders.service.js';
import { scorecardFigures, trendStart } from './scorecard-figures.js';
import { scorecardsRepository } from './scorecards.repository.js';

/**
 * Laboratory scorecards: on-time rate, remake rate by reason and median turnaround over 30, 90 and 365 days, and a
 * weekly trend. A laboratory reads its own; a clinic reads those of the laboratories on its partner list. A computed card
 * is kept (lab_scorecards) until a shipment or a remake changes the laboratory's figures, or the day ends.
 */
export class ScorecardsService {
  constructor(private readonly db: Db) {}

  async get(auth: AuthContext, partnerCode?: string) {
    const side = sideOf(auth);
    let lab: Awaited<ReturnType<typeof scorecardsRepository.lab>>;
    if (side === 'clinic') {
      if (!partnerCode) fail('PARAM_INVALID', { field: 'partnerCode' }, { field: 'partnerCode' });
      lab = await scorecardsRepository.labOfPartnership(this.db, auth.organizationId, partnerCode);
    } else {
      lab = await scorecardsRepository.lab(this.db, auth.organizationId);
    }
    if (!lab) fail('NOT_FOUND');
    const today = new Date().toISOString().slice(0, 10);
    const head = { lab: { code: lab.code, name: lab.name }, asOf: today };
    // The card kept for today stands until the laboratory's figures change; windows end today, so it lasts a day.
    if (lab.figures && lab.as_of === today) {
      const kept =
        typeof lab.figures === 'string'
          ? (JSON.parse(lab.figures) as ReturnType<typeof scorecardFigures>)
          : lab.figures;
      return { ...head, ...kept };
    }
    const tallies = await scorecardsRepository.tallies(this.db, Number(lab.id), today, trendStart(today));
    const figures = scorecardFigures(tallies, today);
    await scorecardsRepository.keep(this.db, Number(lab.id), Number(lab.version ?? 0), today, figures);
    return { ...head, ...figures };
  }
}
