import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { systemConfig } from '../../db/schema/index.ts';

/**
 * Whether and where the daily rate fetch runs, as an administrator set it: the system setting
 * `rates_url` holds the address, an empty value means off. Until an administrator sets it, the
 * RATES_URL setting of the environment decides.
 */
const KEY = 'rates_url';

/** The stored address ('' = turned off), or null when no administrator has set it. */
export async function storedRatesUrl(db: Executor): Promise<string | null> {
  const [row] = await db.select({ value: systemConfig.value }).from(systemConfig).where(eq(systemConfig.key, KEY));
  return row ? row.value : null;
}

export async function storeRatesUrl(db: Executor, url: string, now: Date): Promise<void> {
  await db
    .insert(systemConfig)
    .values({ key: KEY, value: url, updatedAt: now })
    .onConflictDoUpdate({
      target: systemConfig.key,
      set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
    });
}

/** The address the daily fetch uses now: the administrator's choice, else the environment's; null is off. */
export async function effectiveRatesUrl(db: Executor, envUrl: string | null | undefined): Promise<string | null> {
  const stored = await storedRatesUrl(db);
  if (stored !== null) return stored || null;
  return envUrl ?? null;
}
