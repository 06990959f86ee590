// The flow this tab started at the provider: its state (the answer must carry it, so that no one
// can slip this browser an answer to a flow it did not start), what it was for, and where to go
// afterwards. Kept in sessionStorage: the tab that left for the provider is the one that comes back.
const KEY = 'ledger.oidc.pending';

export interface PendingFlow {
  state: string;
  purpose: 'sign-in' | 'link';
  /** the page to open once signed in */
  next: string;
}

export function rememberFlow(flow: PendingFlow): void {
  sessionStorage.setItem(KEY, JSON.stringify(flow));
}

/** The flow of this state, forgotten as it is read; null for an answer this tab did not ask for. */
export function takeFlow(state: string): PendingFlow | null {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  try {
    const flow = JSON.parse(raw ?? 'null') as PendingFlow | null;
    return flow && flow.state === state ? flow : null;
  } catch {
    return null;
  }
}
