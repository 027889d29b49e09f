import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Spin } from 'antd';

/**
 * What the shared 3D viewer (components/ModelViewer, see its types.ts) takes. Declared locally and
 * structurally, so this screen compiles whether or not that component is in place yet.
 */
export interface ViewerModel {
  id: string;
  label: string;
  jaw?: 'upper' | 'lower' | 'bite';
  /** The compact viewer version; may answer 2007 while being prepared (the viewer then uses originalUrl). */
  compactUrl?: string;
  originalUrl: string;
  format: 'stl' | 'ply' | 'obj';
}
export interface ModelViewerProps {
  models: ViewerModel[];
  /** Translation function (common namespace: viewer.loading, viewer.failed …). */
  t: (key: string) => string;
  height?: number | string;
  onError?: (modelId: string, message: string) => void;
}
type ViewerModule = { ModelViewer?: ComponentType<ModelViewerProps>; default?: ComponentType<ModelViewerProps> };

// The viewer (three.js) is its own chunk, loaded only when a model is opened. A glob keeps this file
// compiling while the component is still being written; it resolves to the folder's index once it exists.
const viewerModules = import.meta.glob<ViewerModule>('../../../components/ModelViewer/index.{ts,tsx}');

function Unavailable({ text }: { text: string }) {
  return (
    <div role="alert" data-testid="model-viewer-error">
      {text}
    </div>
  );
}

const ModelViewer = lazy(async (): Promise<{ default: ComponentType<ModelViewerProps> }> => {
  const load = Object.values(viewerModules)[0];
  // Missing component or failed chunk: the boundary below shows 'Unable to load 3D image.'.
  if (!load) throw new Error('The 3D viewer is not available.');
  const m = await load();
  const C = m.ModelViewer ?? m.default;
  if (!C) throw new Error('The 3D viewer is not available.');
  return { default: C };
});

class ViewerBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The 3D viewer, lazily loaded; a failure (chunk or rendering) shows 'Unable to load 3D image.'. */
export function LazyModelViewer({ failedText: text, ...props }: ModelViewerProps & { failedText: string }) {
  return (
    <ViewerBoundary fallback={<Unavailable text={text} />}>
      <Suspense fallback={<Spin />}>
        <ModelViewer {...props} />
      </Suspense>
    </ViewerBoundary>
  );
}
