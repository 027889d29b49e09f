import type { AgreementType } from '@portal/contracts';
import { http } from '../../../lib/http';

/** The accepted types go as one comma-joined string. */
export const saveAgreementReadLog = (types: AgreementType[]) =>
  http.write<null>('user/saveUserAgreementReadLog', { agreementType: types.join(',') });
