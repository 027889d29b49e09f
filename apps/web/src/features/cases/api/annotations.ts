import type { AddAnnotationBody, Annotation } from '@portal/contracts';
import { http } from '../../../lib/http';

export type { Annotation };
export const listAnnotations = (caseCode: string) =>
  http.post<{ list: Annotation[] }>('case/annotation/list', { caseCode });
export const addAnnotation = (body: AddAnnotationBody) => http.write<Annotation>('case/annotation/add', body);
export const deleteAnnotation = (annotationCode: string) =>
  http.write<null>('case/annotation/delete', { annotationCode });
