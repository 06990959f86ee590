// The rates feature's face: the base currency field of the profile and the administrators' card for
// the daily fetch of rates. Other features import this file only.
export { default as BaseCurrencyField } from './components/BaseCurrencyField.vue';
export { default as RatesFetchAdmin } from './components/RatesFetchAdmin.vue';
export { useRatesStore } from './store';
