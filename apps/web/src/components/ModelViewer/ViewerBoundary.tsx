import { Component, type ReactNode } from 'react';

/** Shows `fallback` instead of the viewer when its chunk fails to load or it throws while rendering. */
export class ViewerBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
