// The notifications feature's face: the dialog that shows a notice (also used to preview one being
// written) and the store of the caller's notices. Other features import this file only.
export { default as NoticeDialog } from './components/NoticeDialog.vue';
export { useNotificationsStore } from './store';
