// The OpenID Connect feature's face: the sign-in button, the security page's linked accounts and
// the page the provider sends people back to. Other features import this file only.
export { default as OidcButton } from './components/OidcButton.vue';
export { default as OidcLinks } from './components/OidcLinks.vue';
export { useOidcStore } from './store';
