// The statistics call, through the typed client (the month's budget shown beside it comes from the
// budget feature).
import { client, ok } from '../../api/client';
import type { StatsQuery, Summary } from '../../api/types';

export function fetchSummary(query: StatsQuery): Promise<Summary> {
  return ok(client.GET('/api/stats/summary', { params: { query } }));
}
