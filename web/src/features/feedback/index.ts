// The feedback feature's face. Other features import this file only.
export { useFeedbackStore } from './store';
