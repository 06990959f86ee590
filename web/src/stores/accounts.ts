// The shared account cache lives with the accounts feature; screens of other features import it here.
export {
  ACCOUNT_TYPES,
  accountById,
  accountState,
  invalidateAccounts,
  loadAccounts,
  openAccounts,
  rememberAccount,
  startAccountId,
  type Account,
  type AccountList,
} from '../features/accounts/store';
