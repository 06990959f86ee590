// The first-run setup's face: the card that offers it on the books, and the offer to open an
// account a quick-entry line names. Other features import this file only.
export { default as SetupCard } from './components/SetupCard.vue';
export { default as NewAccountOffer } from './components/NewAccountOffer.vue';
