import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files on disk, named by their SHA-256 under <data folder>/attachments/<two hex digits>/. A file
 * is written to a temporary name beside its place and renamed into it, so that a reader never sees
 * half a file and a failed write leaves nothing behind.
 */
export type FileStore = ReturnType<typeof fileStore>;

export function fileStore(dataDir: string) {
  const root = path.join(dataDir, 'attachments');
  const pathOf = (sha: string, thumbnail = false) =>
    path.join(root, sha.slice(0, 2), thumbnail ? `${sha}.thumb.webp` : sha);

  async function put(target: string, bytes: Buffer) {
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, bytes, { flag: 'wx' });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  return {
    root,
    pathOf,
    async exists(sha: string) {
      return stat(pathOf(sha)).then(
        () => true,
        () => false,
      );
    },
    async write(sha: string, bytes: Buffer, thumbnail: Buffer | null) {
      await put(pathOf(sha), bytes);
      if (thumbnail) await put(pathOf(sha, true), thumbnail);
    },
    /** A backup line's extra fields for an attachment_files row: the file and its thumbnail in base64. */
    async backupFields(row: Record<string, unknown>): Promise<string> {
      const sha = String(row.sha256);
      const file = await readFile(pathOf(sha)).catch(() => null);
      if (!file) return '';
      const thumb = row.thumbnail ? await readFile(pathOf(sha, true)).catch(() => null) : null;
      return `,"f":"${file.toString('base64')}"${thumb ? `,"th":"${thumb.toString('base64')}"` : ''}`;
    },
    /** Writes back the files a restored attachment_files line carries (checked against its name). */
    async restoreFields(row: Record<string, unknown>, line: Record<string, unknown>): Promise<void> {
      const sha = String(row.sha256);
      if (typeof line.f !== 'string' || !/^[0-9a-f]{64}$/.test(sha)) return;
      const file = Buffer.from(line.f, 'base64');
      if (createHash('sha256').update(file).digest('hex') !== sha) return;
      await put(pathOf(sha), file);
      if (typeof line.th === 'string') await put(pathOf(sha, true), Buffer.from(line.th, 'base64'));
    },
    async remove(sha: string) {
      // the thumbnail first: once the file is gone, nothing of it is left
      await rm(pathOf(sha, true), { force: true });
      await rm(pathOf(sha), { force: true });
    },
  };
}
