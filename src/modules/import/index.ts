// The public face of the import module: what the importers (bill import, CSV/JSON import) share.
export { checkSignal, uploadAbandoned } from './import.signal.ts';
