/// <reference lib="webworker" />
/**
 * Asks, inside a worker as the 3D viewer does, for a WebGL2 context on an OffscreenCanvas; answers what it got and
 * the renderer's name.
 */
let answer: { offscreen: boolean; webgl2: boolean; renderer: string | null };
try {
  const hasOffscreen = typeof OffscreenCanvas !== 'undefined';
  const gl = hasOffscreen ? new OffscreenCanvas(1, 1).getContext('webgl2') : null;
  const info = gl?.getExtension('WEBGL_debug_renderer_info');
  const renderer = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : null;
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  answer = { offscreen: hasOffscreen, webgl2: Boolean(gl), renderer };
} catch {
  answer = { offscreen: false, webgl2: false, renderer: null };
}
postMessage(answer);
