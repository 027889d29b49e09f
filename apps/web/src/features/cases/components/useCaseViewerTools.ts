import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ViewerTools } from '../../../components/ModelViewer';
import { useAccess } from '../../../components/Access';
import { listAnnotations } from '../api/annotations';
import { caseKeys } from '../api/keys';
import { useAddAnnotation, useDeleteAnnotation } from '../api/useCaseMutations';
import { toViewerAnnotations } from '../lib/annotations';

/**
 * The case page's viewer: its notes pinned on the scans (read by anyone who sees the case, added and removed by
 * whoever may edit it), and "Save to case".
 */
export function useCaseViewerTools(
  caseCode: string,
  onSaveScreenshot: NonNullable<ViewerTools['onSaveScreenshot']>,
): ViewerTools {
  const can = useAccess();
  const notes = useQuery({
    queryKey: caseKeys.annotations(caseCode),
    queryFn: () => listAnnotations(caseCode),
    enabled: caseCode !== '',
  });
  // Each reads the notes again once it is answered.
  const add = useAddAnnotation(caseCode);
  const remove = useDeleteAnnotation(caseCode);
  const editable = can('case:edit');
  const annotations = useMemo(() => toViewerAnnotations(notes.data?.list ?? []), [notes.data]);
  return {
    onSaveScreenshot,
    annotations,
    onAnnotate: editable
      ? async ({ modelId, point, text }) => {
          await add.mutateAsync({ caseCode, fileCode: modelId, point, text });
        }
      : undefined,
    onDeleteAnnotation: editable
      ? async (id) => {
          await remove.mutateAsync(id);
        }
      : undefined,
  };
}
