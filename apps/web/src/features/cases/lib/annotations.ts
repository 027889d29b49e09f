import type { ViewerAnnotation } from '../../../components/ModelViewer';
import type { Annotation } from '../api/annotations';

/** A case's notes as the viewer pins them: on their scan (the file), numbered, with their author. */
export function toViewerAnnotations(list: readonly Annotation[]): ViewerAnnotation[] {
  return list.map((a) => ({
    id: a.annotationCode,
    modelId: a.fileCode,
    point: a.point,
    number: a.number,
    text: a.text,
    author: a.authorName,
  }));
}
