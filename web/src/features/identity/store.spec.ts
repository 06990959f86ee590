import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { ApiToken, SessionInfo } from '../../api/types';
import { deferred } from '../../lib/deferred';
import { forgetSessionData } from '../../lib/session-end';

const api = vi.hoisted(() => ({
  passkeys: vi.fn(),
  sessions: vi.fn(),
  tokens: vi.fn(),
  createToken: vi.fn(),
  revokeToken: vi.fn(),
  endEverywhere: vi.fn(),
  uploadAvatar: vi.fn(),
  demo: vi.fn(),
}));
const sessionStore = vi.hoisted(() => ({
  session: { config: { auth_methods: ['password'] }, me: { avatar_url: null } as { avatar_url: string | null } | null },
  loadMe: vi.fn(),
  signIn: vi.fn(),
  forgetSession: vi.fn(),
}));
vi.mock('./api', () => ({ identityApi: api }));
vi.mock('./passkeys', () => ({ addPasskey: vi.fn(), passkeySignIn: vi.fn() }));
vi.mock('../../stores/session', () => sessionStore);

import { useIdentityStore } from './store';

const token = (id: number) => ({ id, name: `t${id}` }) as ApiToken;
const device = (id: number) => ({ id }) as SessionInfo;

describe('the identity store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
    sessionStore.loadMe.mockResolvedValue({});
    api.sessions.mockResolvedValue([device(1)]);
    api.tokens.mockResolvedValue([]);
  });

  it('reads no passkeys where the service does not offer them', async () => {
    const store = useIdentityStore();
    await store.loadSecurity();
    expect(api.passkeys).not.toHaveBeenCalled();
    expect(store.sessions.map((s) => s.id)).toEqual([1]);
  });

  it('shows a new token once and reads the tokens again; revoking it hides its secret', async () => {
    api.createToken.mockResolvedValueOnce({ id: 5, token: 'secret' });
    api.tokens.mockResolvedValueOnce([token(5)]).mockResolvedValueOnce([]);
    const store = useIdentityStore();
    await store.createToken(' ci ', 'write', 30);
    expect(api.createToken).toHaveBeenCalledWith('ci', ['read', 'write'], 30);
    expect(store.fresh?.token).toBe('secret');
    expect(store.tokens.map((t) => t.id)).toEqual([5]);
    await store.revokeToken(5);
    expect(store.fresh).toBe(null);
    expect(store.tokens).toEqual([]);
  });

  it('forgets the new token and the lists when the session ends', async () => {
    api.createToken.mockResolvedValueOnce({ id: 5, token: 'secret' });
    api.tokens.mockResolvedValueOnce([token(5)]);
    const store = useIdentityStore();
    await store.createToken('ci', 'read', 30);
    forgetSessionData();
    expect(store.fresh).toBe(null);
    expect(store.tokens).toEqual([]);
    expect(store.sessions).toEqual([]);
  });

  it('keeps the sessions of the latest read', async () => {
    const older = deferred<SessionInfo[]>();
    api.sessions.mockReturnValueOnce(older.promise).mockResolvedValueOnce([device(2)]);
    const store = useIdentityStore();
    const a = store.loadSecurity();
    await store.loadSecurity();
    older.resolve([device(1), device(2)]);
    await a;
    expect(store.sessions.map((s) => s.id)).toEqual([2]);
  });

  it('forgets this device after signing out everywhere, and not when refused', async () => {
    const store = useIdentityStore();
    api.endEverywhere.mockRejectedValueOnce(new Error('offline'));
    await expect(store.endEverywhere()).rejects.toThrow('offline');
    expect(sessionStore.forgetSession).not.toHaveBeenCalled();
    api.endEverywhere.mockResolvedValueOnce({});
    await store.endEverywhere();
    expect(sessionStore.forgetSession).toHaveBeenCalledOnce();
  });

  it('refuses an avatar over 2 MB before sending it', async () => {
    const store = useIdentityStore();
    await expect(store.changeAvatar({ size: 3 * 1024 * 1024 } as File)).rejects.toMatchObject({
      key: 'errors.imageTooBig',
    });
    expect(api.uploadAvatar).not.toHaveBeenCalled();
  });

  it('is busy while signing in, and not after a refusal', async () => {
    const answer = deferred<void>();
    sessionStore.signIn.mockReturnValueOnce(answer.promise);
    const store = useIdentityStore();
    const signing = store.demo();
    expect(store.signingIn).toBe(true);
    answer.resolve();
    await signing;
    expect(store.signingIn).toBe(false);
    sessionStore.signIn.mockRejectedValueOnce(new Error('refused'));
    await expect(store.demo()).rejects.toThrow('refused');
    expect(store.signingIn).toBe(false);
  });
});
