import type { Queryable } from '../../platform/db.js';
import { agreementsRepository } from './agreements.repository.js';

/** What other modules record of the agreements, inside their own transaction (`tx`). */
export class AgreementsService {
  /** The user has read these agreements in their versions in force (sign-up's ticked boxes). */
  static markRead(tx: Queryable, userId: number, types: string[]) {
    return agreementsRepository.markRead(tx, userId, types);
  }
}
