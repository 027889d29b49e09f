import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MARGIN_LINE_STATUSES, toothLabel, type ToothNumberingSystem } from '@portal/contracts';
import type { ViewerTools } from '../../../components/ModelViewer';
import { toViewerAnnotations } from '../../cases';
import { listMarginLines, listOrderAnnotations } from '../api/viewerMarks';
import { useDeleteMarginLine, useSaveMarginLine } from '../api/useOrderMutations';
import { orderKeys } from '../api/keys';
import { authorLine } from '../lib/author';
import type { OrderDetail } from '../api/types';

/**
 * The order page's viewer: the clinic's notes on the case (read-only here) and the margin lines per prepared tooth,
 * which either party draws while the order runs (`mayDraw`: the caller's permission for its side).
 */
export function useOrderViewerTools(order: OrderDetail, system: ToothNumberingSystem, mayDraw: boolean): ViewerTools {
  const { t } = useTranslation('orders');
  const { orderCode } = order;
  const notes = useQuery({
    queryKey: orderKeys.annotations(orderCode),
    queryFn: () => listOrderAnnotations(orderCode),
  });
  const lines = useQuery({ queryKey: orderKeys.marginLines(orderCode), queryFn: () => listMarginLines(orderCode) });
  // Each reads the lines again once it is answered.
  const save = useSaveMarginLine(orderCode);
  const remove = useDeleteMarginLine(orderCode);
  const drawing = mayDraw && MARGIN_LINE_STATUSES.includes(order.status);
  const annotations = useMemo(() => toViewerAnnotations(notes.data?.list ?? []), [notes.data]);
  const marginLines = useMemo(
    () =>
      (lines.data?.list ?? []).map((l) => ({
        tooth: l.tooth,
        label: toothLabel(l.tooth, system),
        modelId: l.fileCode,
        points: l.points,
        author: authorLine(l.authorName, l.organizationName, t('common:formerUser')),
      })),
    [lines.data, system, t],
  );
  // A pontic spans a gap: there is no preparation to draw around.
  const marginTeeth = useMemo(
    () =>
      order.teeth
        .filter((t) => t.unit !== 'pontic')
        .map((t) => ({ value: t.number, label: toothLabel(t.number, system) })),
    [order.teeth, system],
  );
  return {
    annotations,
    marginLines,
    marginTeeth: drawing ? marginTeeth : undefined,
    onSaveMarginLine: drawing
      ? async ({ tooth, modelId, points }) => {
          await save.mutateAsync({ orderCode, tooth, fileCode: modelId, points });
        }
      : undefined,
    onDeleteMarginLine: drawing
      ? async (tooth) => {
          await remove.mutateAsync(tooth);
        }
      : undefined,
  };
}
