import type { ServiceDeps } from '../service.ts';

/** What the bill import use cases are built from. */
export type BillDeps = ServiceDeps<never, 'appTimezone' | 'uploadLimits'>;

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const PREVIEW_ROWS = 1000;
export const MAX_RULES = 200;
export const MAX_PRESETS = 50;
