import type { AgreementType } from '@portal/contracts';
import { http } from '../../../lib/http';

export interface UnreadAgreement {
  agreementType: AgreementType;
  version: number;
  url: string;
}
// silent: a 403 here logs out instead of showing a toast.
export const queryAgreementReadLog = () =>
  http.post<{ unread: UnreadAgreement[]; firstTime: boolean }>('user/queryUserAgreementReadLog', {}, { silent: true });
