/**
 * Entry for pages: `LazyModelViewer` loads three.js and the viewer only when rendered (wrap it in <Suspense>).
 * Importing this file pulls in no three.js code.
 */
import { lazy } from 'react';

export type { ModelViewerModel, ModelViewerProps, ViewerJaw } from './types';
export const LazyModelViewer = lazy(() => import('./ModelViewer'));
export { ViewerBoundary } from './ViewerBoundary';
