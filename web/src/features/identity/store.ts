// Who is signed in and how: signing in, the profile, and the security page's passkeys, sessions and
// API tokens. Each list has its own loader (loading, error, stale answers dropped); every change
// reads again what it touched. The signed-in person and the shared state stay in stores/session.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { ClientError } from '../../api/client';
import type { ApiToken, NewApiToken, Passkey, SessionInfo } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { forgetLoader } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { ensureConfig, forgetSession, loadMe, session, signIn } from '../../stores/session';
import { identityApi, type ProfileChange, type TokenPair } from './api';
import { addPasskey, passkeySignIn } from './passkeys';
import { passwordSignIn, secondFactorSignIn } from './totp';

export const AVATAR_LIMIT = 2 * 1024 * 1024;

export const useIdentityStore = defineStore('identity', () => {
  // ---- signing in ----
  const signingIn = ref(false);
  async function start(call: () => Promise<TokenPair>): Promise<void> {
    signingIn.value = true;
    try {
      await signIn(call());
    } finally {
      signingIn.value = false;
    }
  }
  const signIns = {
    demo: () => start(() => identityApi.demo()),
    wechat: (code: string) => start(() => identityApi.wechat(code.trim())),
    /** signs in with a password (then a code, for a person with a second factor), or first creates the account */
    async password(username: string, password: string, register: boolean): Promise<void> {
      if (register) return start(() => identityApi.register(username.trim(), password));
      signingIn.value = true;
      try {
        await passwordSignIn(username.trim(), password);
      } finally {
        signingIn.value = false;
      }
    },
    /** the second step of a password sign-in: a code from the authenticator app or a recovery code */
    async secondFactor(code: string): Promise<void> {
      signingIn.value = true;
      try {
        await secondFactorSignIn(code);
      } finally {
        signingIn.value = false;
      }
    },
    passkey: () => start(passkeySignIn),
  };

  // ---- profile ----
  async function saveProfile(change: ProfileChange): Promise<void> {
    session.me = await identityApi.updateMe({
      ...change,
      nickname: change.nickname.trim(),
      slogan: change.slogan.trim(),
      timezone: change.timezone?.trim() || null,
    });
  }
  async function changeAvatar(file: File): Promise<void> {
    if (file.size > AVATAR_LIMIT) throw new ClientError('errors.imageTooBig');
    const form = new FormData();
    form.append('file', file);
    const res = await identityApi.uploadAvatar(form);
    if (session.me) session.me.avatar_url = res.avatar_url;
  }

  // ---- security ----
  const passkeysOffered = () => session.config?.auth_methods.includes('passkey') ?? false;
  // signed-in pages no longer wait for the configuration: whether passkeys are offered is known once it is read
  const passkeys = createLoader<Passkey[]>(async () => {
    await ensureConfig();
    return passkeysOffered() ? identityApi.passkeys() : [];
  }, []);
  const sessions = createLoader<SessionInfo[]>(() => identityApi.sessions(), []);
  const tokens = createLoader<ApiToken[]>(() => identityApi.tokens(), []);
  /** the token just made: its secret is shown once */
  const fresh = ref<NewApiToken | null>(null);
  onSessionEnd(() => {
    fresh.value = null;
    forgetLoader(passkeys, []);
    forgetLoader(sessions, []);
    forgetLoader(tokens, []);
  });

  /** The person (their sign-in methods) and the three lists. Rejects when the person cannot be read. */
  async function loadSecurity(): Promise<void> {
    await Promise.all([loadMe(), passkeys.load(), sessions.load(), tokens.load()]);
  }
  /** runs a change, then reads the security page again */
  async function changed<T>(fn: () => Promise<T>): Promise<T> {
    const out = await fn();
    await loadSecurity();
    return out;
  }

  const security = {
    setUsername: (username: string) =>
      identityApi
        .setUsername(username.trim())
        .then(() => loadMe())
        .then(() => undefined),
    /** sets or changes the password (the current one is needed when there is one); other sessions end */
    setPassword: (current: string | null, next: string) =>
      changed(() =>
        identityApi.setPassword(
          current === null ? { new_password: next } : { current_password: current, new_password: next },
        ),
      ),
    removePassword: () =>
      identityApi
        .removePassword()
        .then(() => loadMe())
        .then(() => undefined),
    addPasskey: (name: string) => changed(() => addPasskey(name.trim())),
    renamePasskey: (id: number, name: string) => changed(() => identityApi.renamePasskey(id, name)),
    removePasskey: (id: number) => changed(() => identityApi.removePasskey(id)),
    endSession: (id: number) => changed(() => identityApi.endSession(id)),
    endOthers: () => changed(() => identityApi.endOtherSessions()),
    /** ends every session and token; this device then forgets its own */
    async endEverywhere(): Promise<void> {
      await identityApi.endEverywhere();
      fresh.value = null;
      forgetSession();
    },
    async createToken(name: string, scope: 'read' | 'write', days: number): Promise<void> {
      fresh.value = await identityApi.createToken(name.trim(), scope === 'write' ? ['read', 'write'] : ['read'], days);
      await loadSecurity();
    },
    revokeToken: (id: number) =>
      changed(async () => {
        await identityApi.revokeToken(id);
        if (fresh.value?.id === id) fresh.value = null;
      }),
  };

  return {
    signingIn,
    ...signIns,
    saveProfile,
    changeAvatar,
    passkeys: passkeys.data,
    sessions: sessions.data,
    tokens: tokens.data,
    fresh,
    /** the failure of the last read of any of the three lists, if one failed */
    listError: computed(() => sessions.error.value ?? tokens.error.value ?? passkeys.error.value ?? null),
    loadSecurity,
    ...security,
  };
});
