import type { Executor } from '../../db/client.ts';

/** Fills a fresh demo account with sample data. */
export async function seedDemoData(_db: Executor, _userId: number, _now: Date, _timezone: string): Promise<void> {}
