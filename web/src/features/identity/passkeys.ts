// Passkeys through the browser's WebAuthn API: the server's JSON options go to
// @simplewebauthn/browser, which answers with the JSON the server verifies.
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { ClientError } from '../../api/client';
import type { Passkey } from '../../api/types';
import { identityApi, type TokenPair } from './api';

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** The browser's prompt was dismissed or refused: shown as such, not as a failure of the service. */
function fromBrowser(err: unknown): never {
  if (err instanceof WebAuthnError || (err instanceof Error && err.name === 'NotAllowedError'))
    throw new ClientError('errors.passkeyCancelled');
  throw err;
}

/** Adds a passkey to the signed-in account. */
export async function addPasskey(name: string): Promise<Passkey> {
  if (!passkeysSupported()) throw new ClientError('errors.passkeyUnsupported');
  const optionsJSON = await identityApi.passkeyRegisterOptions();
  const credential = await startRegistration({ optionsJSON: optionsJSON as never }).catch(fromBrowser);
  return identityApi.passkeyRegisterVerify(credential, name);
}

/** Signs in with a discoverable passkey: the authenticator offers this site's credentials. */
export async function passkeySignIn(): Promise<TokenPair> {
  if (!passkeysSupported()) throw new ClientError('errors.passkeyUnsupported');
  const optionsJSON = await identityApi.passkeyLoginOptions();
  const credential = await startAuthentication({ optionsJSON: optionsJSON as never }).catch(fromBrowser);
  return identityApi.passkeyLoginVerify(credential);
}
