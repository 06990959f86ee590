// The accounts feature's face: the caller's accounts as every screen reads them. Other features
// import this file only.
export {
  accountById,
  accountState,
  invalidateAccounts,
  loadAccounts,
  openAccounts,
  useAccountsStore,
  type Account,
} from './store';
