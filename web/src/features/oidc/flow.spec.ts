import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberFlow, takeFlow } from './flow';

// the tab's sessionStorage
const stored = new Map<string, string>();
vi.stubGlobal('sessionStorage', {
  getItem: (k: string) => stored.get(k) ?? null,
  setItem: (k: string, v: string) => void stored.set(k, String(v)),
  removeItem: (k: string) => void stored.delete(k),
});

describe('the pending OpenID Connect flow of a tab', () => {
  beforeEach(() => stored.clear());

  it('answers the flow of its own state, once', () => {
    rememberFlow({ state: 's1', purpose: 'sign-in', next: '/stats' });
    expect(takeFlow('s1')).toEqual({ state: 's1', purpose: 'sign-in', next: '/stats' });
    expect(takeFlow('s1')).toBeNull();
  });

  it('refuses an answer to a flow this tab did not start, and forgets its own', () => {
    rememberFlow({ state: 'mine', purpose: 'link', next: '/security' });
    expect(takeFlow('someone-elses')).toBeNull();
    expect(takeFlow('mine')).toBeNull();
  });

  it('refuses when nothing was started or the record is unreadable', () => {
    expect(takeFlow('s')).toBeNull();
    sessionStorage.setItem('ledger.oidc.pending', '{not json');
    expect(takeFlow('s')).toBeNull();
  });
});
