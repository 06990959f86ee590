// Download tokens of a backup (signed, short-lived) and the safe file name of a backup.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DOWNLOAD_TTL_MS = 10 * 60_000;
const NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN_RE = /^(\d{1,15})\.([0-9a-f]{64})$/;

/** A key of its own for download tokens, derived from the signing secret (never the secret itself). */
function downloadKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('backup-download').digest();
}

/** `${expiresAtMs}.${hex HMAC-SHA256 over "${id}.${expiresAtMs}"}` */
export function signDownloadToken(secret: string, id: number, expiresAtMs: number): string {
  const mac = createHmac('sha256', downloadKey(secret)).update(`${id}.${expiresAtMs}`).digest('hex');
  return `${expiresAtMs}.${mac}`;
}

export function verifyDownloadToken(secret: string, id: number, token: string | undefined, nowMs: number): boolean {
  const m = token ? TOKEN_RE.exec(token) : null;
  if (!m) return false;
  const expiresAt = Number(m[1]);
  if (!(expiresAt > nowMs)) return false;
  const expected = createHmac('sha256', downloadKey(secret)).update(`${id}.${expiresAt}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}

export function backupFileName(name: string): string {
  if (!NAME_RE.test(name)) throw new Error(`unsafe backup name: ${name}`);
  return `${name}.json.gz`;
}
