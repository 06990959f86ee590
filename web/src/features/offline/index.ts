// The offline feature's face: whether a row is waiting to be sent or was refused, and whether the
// totals already count rows not yet sent; a file saved with an entry created offline, kept until
// the server holds it. Other features import this file only.
export { offline, rowState, totalsIncludePending } from './store';
export { keepFileForLater } from './sync';
