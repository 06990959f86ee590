// The reader's feedback: one page of what they sent (with the replies), and sending more, after
// which the first page is read again so the new one shows on top.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Feedback } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { feedbackApi } from './api';

export const PAGE_SIZE = 20;

export const useFeedbackStore = defineStore('feedback', () => {
  const page = ref(1);
  const mine = createLoader(() => feedbackApi.mine(page.value, PAGE_SIZE), { list: [] as Feedback[], total: 0 });
  const list = computed(() => mine.data.value.list);
  const total = computed(() => mine.data.value.total);

  async function goTo(p: number): Promise<void> {
    page.value = p;
    await mine.load();
  }

  /** Sends feedback (the contact is optional), then shows the first page. */
  async function send(content: string, contact: string): Promise<void> {
    await feedbackApi.send(content.trim(), contact.trim());
    await goTo(1);
  }

  return { page, list, total, loading: mine.loading, error: mine.error, loaded: mine.loaded, load: mine.load, goTo, send };
});
