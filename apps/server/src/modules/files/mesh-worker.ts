import { parentPort } from 'node:worker_threads';
import { compactMesh, MeshParseError, parseMesh } from '@portal/mesh';

/** Parses a model and encodes its compact viewer version, off the server's event loop. */
parentPort!.on('message', async (msg: { id: number; bytes: Uint8Array; format: string }) => {
  try {
    const compact = await compactMesh(parseMesh(msg.bytes, msg.format));
    parentPort!.postMessage({ id: msg.id, ok: true, bytes: compact }, [compact.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, ok: false, invalid: err instanceof MeshParseError, error: String(err) });
  }
});
