import { OrgType } from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import { fail } from '../../platform/errors.js';
import type { Side } from './orders.repository.js';

/** Which side of orders the caller's organization is on; other organizations have no orders. */
export function sideOf(auth: AuthContext): Side {
  if (auth.orgType === OrgType.Clinic) return 'clinic';
  if (auth.orgType === OrgType.Lab) return 'lab';
  fail('NO_PERMISSION');
}
