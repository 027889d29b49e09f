import type { ToothStage } from '@portal/contracts';
import { http } from '../../../lib/http';

/** The laboratory marks where its work on some teeth of an order in production stands. */
export const setToothStage = (orderCode: string, teeth: number[], stage: ToothStage) =>
  http.write<null>('order/toothStage', { orderCode, teeth, stage });
