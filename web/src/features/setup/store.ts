// The first-run setup as its screens use it: whether it is still offered, finishing or skipping it,
// and an account opened from a quick-entry line that names one the person does not keep.
import { defineStore } from 'pinia';
import * as api from './api';

export type { SetupBody, SetupState } from './api';

export const useSetupStore = defineStore('setup', () => ({
  read: () => api.fetchSetup(),
  finish: (body: api.SetupBody) => api.finishSetup(body),
  skip: () => api.skipSetup(),
  openAccount: (...args: Parameters<typeof api.openAccount>) => api.openAccount(...args),
}));
