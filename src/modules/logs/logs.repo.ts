import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { isValidDate } from '../../lib/dates.ts';
import { LOG_FILE_RE, logFileName } from '../../lib/logger.ts';

/**
 * Log files on disk. Only names that match LOG_FILE_RE are ever opened, and they are built from a
 * validated date, so no request can reach a path outside LOG_DIR.
 */
export interface LogFileInfo {
  name: string;
  date: string;
  size: number;
  mtimeMs: number;
}

function pathOf(dir: string, name: string): string {
  if (!LOG_FILE_RE.test(name)) throw new Error(`not a log file name: ${name}`);
  return path.join(dir, name);
}

export async function listLogFiles(dir: string): Promise<LogFileInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: LogFileInfo[] = [];
  for (const name of names) {
    const m = LOG_FILE_RE.exec(name);
    if (!m || !isValidDate(m[1]!)) continue;
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (!info?.isFile()) continue;
    out.push({ name, date: m[1]!, size: info.size, mtimeMs: info.mtimeMs });
  }
  return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

export async function logFileOf(dir: string, date: string): Promise<LogFileInfo | null> {
  const name = logFileName(date);
  const info = await stat(pathOf(dir, name)).catch(() => null);
  return info?.isFile() ? { name, date, size: info.size, mtimeMs: info.mtimeMs } : null;
}

/** Calls `onLine` for every line of a log file, streaming (memory does not grow with the file). */
export async function eachLine(dir: string, name: string, onLine: (line: string) => void): Promise<void> {
  const stream = createReadStream(pathOf(dir, name), { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) onLine(line);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  } finally {
    lines.close();
    stream.destroy();
  }
}
