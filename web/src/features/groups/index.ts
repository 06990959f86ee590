// The groups feature's face: the groups store (members, settings, balances) and the read of a group's
// members that the books' member filter makes. Other features import this file only.
export { useGroupsStore } from './store';
export { fetchMembers } from './api';
