import type { UsageEvent, UsageWeekly } from '@portal/contracts';
import { http } from '../../../lib/http';

export const participate = () => http.write<{ improvementPlan: boolean }>('user/participateImprovementPlan', {});
export const cancelParticipation = () =>
  http.write<{ improvementPlan: boolean }>('user/cancelParticipateImprovementPlan', {});
/** Silent: counting is in the background; a lost batch is not the user's concern. */
export const sendUsage = (events: UsageEvent[]) =>
  http.post<{ accepted: number }>('usage/events', { events }, { silent: true });
export const usageWeekly = (weeks: number) => http.post<UsageWeekly>('usage/weekly', { weeks });
