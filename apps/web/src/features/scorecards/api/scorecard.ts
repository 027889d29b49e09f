import { queryOptions } from '@tanstack/react-query';
import type { Scorecard } from '@portal/contracts';
import { http } from '../../../lib/http';
import { LIVE } from '../../../lib/freshness';
import { scorecardKeys } from './keys';

export const labScorecard = (partnerCode?: string) =>
  http.post<Scorecard>('scorecard/lab', partnerCode ? { partnerCode } : {});
export const labScorecardQuery = (partnerCode?: string) =>
  queryOptions({ queryKey: scorecardKeys.lab(partnerCode), queryFn: () => labScorecard(partnerCode), ...LIVE });
