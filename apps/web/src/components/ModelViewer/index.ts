/**
 * Entry for pages: `LazyModelViewer` loads three.js and the viewer only when rendered (wrap it in <Suspense>).
 * Importing this file pulls in no three.js code.
 */
import { lazyChunk } from '../../lib/lazyChunk';

export type {
  ModelViewerModel,
  ModelViewerProps,
  Point3,
  ViewerAnnotation,
  ViewerJaw,
  ViewerMarginLine,
  ViewerTools,
} from './types';
// The mark tells benchmarks where a page's own code ends and the viewer's (three.js, its controls) begins.
export const LazyModelViewer = lazyChunk(() => {
  performance.mark('viewer:code');
  return import('./ModelViewer');
});
export { ViewerBoundary } from './ViewerBoundary';
