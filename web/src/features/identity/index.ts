// The identity feature's face: the caller's profile, sign-in methods, passkeys and sessions. Other
// features import this file only.
export { useIdentityStore } from './store';
