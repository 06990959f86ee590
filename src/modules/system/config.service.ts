import { inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { Type, type Static } from 'typebox';
import type { Db } from '../../db/client.ts';
import { systemConfig } from '../../db/schema/index.ts';

export const PublicConfig = Type.Object({
  app_version: Type.String({ description: 'display version, edited by administrators; starts as the build version' }),
  tagline: Type.String(),
  description: Type.String(),
});
export type PublicConfig = Static<typeof PublicConfig>;

const KEYS = ['app_version', 'tagline', 'description'] as const;

export interface ConfigServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'version'>;
}

export function createConfigService({ db, clock, config }: ConfigServiceDeps) {
  const buildVersion = config.version;
  const defaults: PublicConfig = {
    app_version: buildVersion,
    tagline: 'Keep your books together',
    description: 'A bookkeeping service for personal books and shared groups.',
  };

  async function get(): Promise<PublicConfig> {
    const rows = await db
      .select()
      .from(systemConfig)
      .where(inArray(systemConfig.key, [...KEYS]));
    const out = { ...defaults };
    for (const r of rows) out[r.key as keyof PublicConfig] = r.value;
    return out;
  }

  return {
    get,
    /** writes the defaults once; existing values are never overwritten */
    async seed(): Promise<void> {
      await db
        .insert(systemConfig)
        .values(KEYS.map((k) => ({ key: k, value: defaults[k] })))
        .onConflictDoNothing();
    },
    async update(patch: Partial<PublicConfig>): Promise<PublicConfig> {
      const entries = KEYS.filter((k) => patch[k] !== undefined).map((k) => ({
        key: k,
        value: patch[k]!.trim(),
        updatedAt: clock.now(),
      }));
      if (entries.length) {
        await db
          .insert(systemConfig)
          .values(entries)
          .onConflictDoUpdate({
            target: systemConfig.key,
            set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
          });
      }
      return get();
    },
  };
}
