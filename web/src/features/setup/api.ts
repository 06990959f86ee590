// The first-run setup's calls, through the typed client.
import { client, ok } from '../../api/client';
import type { components } from '../../api/schema';

export type SetupState = components['schemas']['SetupState'];
export type SetupBody = components['schemas']['SetupBody'];

export function fetchSetup(): Promise<SetupState> {
  return ok(client.GET('/api/setup'));
}

export function finishSetup(body: SetupBody): Promise<SetupState> {
  return ok(client.POST('/api/setup', { body }));
}

export function skipSetup(): Promise<SetupState> {
  return ok(client.POST('/api/setup/skip'));
}

/** Opens an account of that name and type in the base currency. */
export function openAccount(name: string, type: components['schemas']['Account']['type']) {
  return ok(client.POST('/api/accounts', { body: { name, type } }));
}
