import { Suspense } from 'react';
import { Spin } from 'antd';
// The folder's entry holds no three.js code: it exports a lazy component, so the viewer and three.js
// stay in their own chunk, fetched only when a model is opened.
import {
  LazyModelViewer as SharedModelViewer,
  type ModelViewerModel,
  type ModelViewerProps,
  ViewerBoundary,
} from '../../../components/ModelViewer';

export type ViewerModel = ModelViewerModel;

function Unavailable({ text }: { text: string }) {
  return (
    <div role="alert" data-testid="model-viewer-error">
      {text}
    </div>
  );
}

/** The shared 3D viewer, lazily loaded; a failure (chunk or rendering) shows 'Unable to load 3D image.'. */
export function LazyModelViewer({ failedText, ...props }: ModelViewerProps & { failedText: string }) {
  return (
    <ViewerBoundary fallback={<Unavailable text={failedText} />}>
      <Suspense fallback={<Spin />}>
        <SharedModelViewer {...props} />
      </Suspense>
    </ViewerBoundary>
  );
}
