import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database is one process's at a time: two opening its folder would each overwrite the other's pages.
 * The process that opens it (the server, a backup or a restore) leaves its pid in the data folder while it runs.
 */
const lockFile = (dataDir: string) => join(dataDir, 'pglite.pid');

/** The live process that holds the data folder, if any (a pid left by a process that died holds nothing). */
export function dataDirHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export class DataDirBusy extends Error {}

/** Takes the data folder for this process; answers a function that gives it back. */
export function holdDataDir(dataDir: string, what: string): () => void {
  const holder = dataDirHolder(dataDir);
  if (holder !== null)
    throw new DataDirBusy(
      `Another process (pid ${holder}) has the embedded database in ${dataDir} open: stop it before ${what}.`,
    );
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), String(process.pid));
  return () => {
    if (dataDirHolder(dataDir) === null) rmSync(lockFile(dataDir), { force: true });
  };
}
