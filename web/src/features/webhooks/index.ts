// The webhooks feature's face: its store (the router loads the screen itself). Other features
// import this file only.
export { useWebhooksStore } from './store';
