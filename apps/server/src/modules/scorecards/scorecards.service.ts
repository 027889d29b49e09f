import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { sideOf } from '../orders/side.js';
import { scorecardFigures, trendStart } from './scorecard-figures.js';
import { scorecardsRepository } from './scorecards.repository.js';

/**
 * Laboratory scorecards: on-time rate, remake rate by reason and median turnaround over 30, 90 and 365 days, and a
 * weekly trend. A laboratory reads its own; a clinic reads those of the laboratories on its partner list. A computed card
 * is kept (lab_scorecards) until a shipment or a remake changes the laboratory's figures, or the day ends.
 */
export class ScorecardsService {
  // Static: the orders module's transactions change a laboratory's figures through these; the scorecard tables are
  // written here and nowhere else.

  /**
   * Counts a shipment on its laboratory's scorecard (its day, turnaround and whether it left by its due date) and
   * drops the kept card. Run in the shipping transaction, before the shipping update sets the order's own dates.
   */
  static tallyShipment(tx: Queryable, orderId: number) {
    return scorecardsRepository.tallyShipment(tx, orderId);
  }

  /** The laboratory's remakes changed (one asked, one withdrawn): its kept scorecard is dropped. */
  static touch(tx: Queryable, labOrgId: number) {
    return scorecardsRepository.touchScorecard(tx, labOrgId);
  }

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
