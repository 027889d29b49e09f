import yauzl from 'yauzl';

export interface ZipEntry {
  bytes: Buffer;
  /** 0 stored, 8 deflated. */
  method: number;
}

/** The entries of a zip, read whole (yauzl checks each entry's CRC as it reads it). */
export function unzipEntries(buf: Buffer): Promise<Map<string, ZipEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const out = new Map<string, ZipEntry>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.set(entry.fileName, { bytes: Buffer.concat(chunks), method: entry.compressionMethod });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The entries' bytes by name. */
export async function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Map([...(await unzipEntries(buf))].map(([name, e]) => [name, e.bytes]));
}
