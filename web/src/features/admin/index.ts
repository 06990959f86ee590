// The administration feature's face. Other features import this file only.
export {
  useAdminConfigStore,
  useAdminDashboardStore,
  useAdminFeedbackStore,
  useAdminNoticesStore,
  useAdminUsersStore,
} from './store';
