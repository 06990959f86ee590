// The page's first script, small and loaded beside the app's own (web/vite.config.ts puts it first
// in the page): on a slow network each request waits more than half a second for its answer, so
// the reads the first screen needs are started here at once and in parallel, while the app's
// scripts are still on their way, instead of one after another once they have run. The app's calls
// for the same addresses take these answers (api/client.ts). It reads only what the session keeps
// in localStorage; a signed-out page asks for the configuration of the sign-in page alone.
import { getTokens, readEarly, takeServerAnswers } from './api/client';
import { filtersFromQuery, listQuery, PAGE_SIZE } from './features/transactions/filters';
import { defaultChoice, summaryQuery } from './features/stats/query';
import { userDb } from './features/offline/db';
import { todayIn } from './lib/dates';
import { savedGroup, savedTimezone } from './stores/saved';

let serverAnswers = false;

/** Whether the page's first screen, rendered by the server, is of this browser's signed-in person. */
export function firstScreenIsMine(): boolean {
  return serverAnswers;
}

function start(): void {
  if (!getTokens()) {
    readEarly('/api/config');
    return;
  }
  // a page the server rendered brings the first screen's answers: those are not asked again
  serverAnswers = takeServerAnswers();
  // a start from the offline cache reads it first thing: the database opens while the app loads
  void userDb().catch(() => undefined);
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const today = todayIn(savedTimezone());
  // the group shown last; when it is no longer one of the person's, the app asks again for its own
  const group = savedGroup();
  readEarly('/api/me');
  readEarly('/api/groups');
  if (path === '/' || path === '/books') {
    const query = Object.fromEntries(new URLSearchParams(location.search));
    readEarly('/api/transactions', listQuery(filtersFromQuery(query, today), group, 1, PAGE_SIZE));
  } else if (path === '/stats') {
    // the page's code (with the charts) downloads beside its data, not after the app has run
    void import('./features/stats/components/StatsView.vue').catch(() => undefined);
    readEarly('/api/stats/summary', summaryQuery(defaultChoice(today, group)));
    readEarly('/api/budget', { month: today.slice(0, 7), ...(group ? { group_id: group } : {}) });
  }
}

// a failure here (storage refused, say) only leaves the app to ask for itself: it must not stop
// the app, whose scripts import this one
try {
  start();
} catch {
  // the app's own calls read everything
}
