// The transactions feature's face (the books' list): the fields of an entry (shared by the recurring
// rules' form) and the split of a group record (its editor and its arithmetic, used by the entry
// dialog). Other features import this file only.
export { default as EntryFields } from './components/EntryFields.vue';
export { default as SplitEditor } from './components/SplitEditor.vue';
export type { Entry } from './entry';
export { emptySplit, splitBody, splitCheck, type SplitDraft } from './split';
export { useTransactionsStore } from './store';
