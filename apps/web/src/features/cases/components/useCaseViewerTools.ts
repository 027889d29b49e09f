import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ViewerTools } from '../../../components/ModelViewer';
import { useAccess } from '../../../components/Access';
import { addAnnotation, deleteAnnotation, listAnnotations } from '../api/annotations';
import { caseKeys } from '../api/keys';
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
  const qc = useQueryClient();
  const key = caseKeys.annotations(caseCode);
  const notes = useQuery({ queryKey: key, queryFn: () => listAnnotations(caseCode), enabled: caseCode !== '' });
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const add = useMutation({ mutationFn: addAnnotation, onSettled: refresh });
  const remove = useMutation({ mutationFn: deleteAnnotation, onSettled: refresh });
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
