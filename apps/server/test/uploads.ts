import { Upload } from 'tus-js-client';

/** Uploads bytes to a case through the tus protocol, as the browser and the scanner command do. */
export function tusUpload(
  baseUrl: string,
  token: string,
  bytes: Buffer,
  meta: { caseCode: string; filename: string; jaw?: string },
  chunkSize = 256 * 1024,
) {
  return new Promise<{ url: string }>((resolve, reject) => {
    const upload = new Upload(bytes, {
      endpoint: `${baseUrl}/api/v2/files/tus`,
      headers: { authorization: `Bearer ${token}` },
      metadata: meta,
      chunkSize,
      retryDelays: [],
      onError: (err) => reject(err),
      onSuccess: () => resolve({ url: upload.url! }),
    });
    upload.start();
  });
}

/** The status and JSON body of a refused tus request. */
export function tusRefusal(err: unknown): { status: number; code: number; msg: string } {
  const e = err as { originalResponse?: { getStatus(): number; getBody(): string } };
  const res = e.originalResponse;
  if (!res) throw err;
  const body = JSON.parse(res.getBody() || '{}') as { code: number; msg: string };
  return { status: res.getStatus(), code: body.code, msg: body.msg };
}

export const binaryStl = (triangles: number, seed = 1) => {
  const buf = Buffer.alloc(84 + 50 * triangles);
  buf.write('synthetic scan', 0);
  buf.writeUInt32LE(triangles, 80);
  for (let i = 0; i < triangles; i++)
    for (let k = 0; k < 9; k++) buf.writeFloatLE(Math.sin(i * 7 + k * 13 + seed) * 20, 84 + i * 50 + 12 + k * 4);
  return buf;
};
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108020000009077053e0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082',
  'hex',
);
