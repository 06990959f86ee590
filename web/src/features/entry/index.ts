// The entry feature's face: the suggestion chips under an entry's fields, and the calls that create a
// record and suggest its category, which the books' entry fields and the accounts' adjustments make.
// Other features import this file only.
export { default as SuggestionChips } from './components/SuggestionChips.vue';
export { createTransaction, suggest, type CreateBody } from './api';
