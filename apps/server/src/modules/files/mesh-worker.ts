import { parentPort } from 'node:worker_threads';
import { compactMesh, inMillimetres, MeshParseError, parseMesh } from '@portal/mesh';

/**
 * Parses a model, converts it to millimetres (its unit told from its size) and encodes its compact viewer
 * version, off the server's event loop. A model whose size fits no plausible unit gets no viewer version:
 * quantised in millimetres it would be drawn broken.
 */
parentPort!.on('message', (msg: { id: number; bytes: Uint8Array; format: string }) => void prepare(msg));

async function prepare(msg: { id: number; bytes: Uint8Array; format: string }) {
  try {
    const found = inMillimetres(parseMesh(msg.bytes, msg.format));
    if (!found.unit) {
      const error = `size fits no plausible unit: ${found.extent.toPrecision(3)} across`;
      return parentPort!.postMessage({ id: msg.id, ok: false, invalid: true, unit: 'unknown', error });
    }
    const compact = await compactMesh(found.mesh);
    parentPort!.postMessage({ id: msg.id, ok: true, bytes: compact, unit: found.unit }, [
      compact.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, ok: false, invalid: err instanceof MeshParseError, error: String(err) });
  }
}
