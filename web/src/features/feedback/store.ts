// The reader's feedback: one page of what they sent (with the replies), and sending more, after
// which the first page is read again so the new one shows on top.
import { defineStore } from 'pinia';
import { createPager } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { feedbackApi } from './api';

export { PAGE_SIZE } from '../../lib/pager';

export const useFeedbackStore = defineStore('feedback', () => {
  const pager = createPager((page, size) => feedbackApi.mine(page, size));
  onSessionEnd(pager.forget);

  /** Sends feedback (the contact is optional), then shows the first page. */
  async function send(content: string, contact: string): Promise<void> {
    await feedbackApi.send(content.trim(), contact.trim());
    await pager.goTo(1);
  }

  return { ...pager, send };
});
