import type { UseCaseArgs } from '../service.ts';
import type { PasskeyServiceDeps } from './passkeys.deps.ts';
import { authenticationOptions, passkeyLogin } from './passkeys.login.ts';
import { listPasskeys, removePasskey, renamePasskey } from './passkeys.own.ts';
import { registerPasskey, registrationOptions } from './passkeys.register.ts';

export { CHALLENGE_TTL_MS, MAX_PASSKEYS_PER_USER, type PasskeyServiceDeps, type PasskeyView } from './passkeys.deps.ts';

/**
 * Passkeys, one named use case each: creating one (passkeys.register.ts), signing in with one
 * (passkeys.login.ts), and the person's own list of them (passkeys.own.ts).
 */
export function createPasskeyService(deps: PasskeyServiceDeps) {
  return {
    list: (...a: UseCaseArgs<typeof listPasskeys>) => listPasskeys(deps, ...a),
    registrationOptions: (...a: UseCaseArgs<typeof registrationOptions>) => registrationOptions(deps, ...a),
    register: (...a: UseCaseArgs<typeof registerPasskey>) => registerPasskey(deps, ...a),
    authenticationOptions: () => authenticationOptions(deps),
    login: (...a: UseCaseArgs<typeof passkeyLogin>) => passkeyLogin(deps, ...a),
    rename: (...a: UseCaseArgs<typeof renamePasskey>) => renamePasskey(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removePasskey>) => removePasskey(deps, ...a),
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
