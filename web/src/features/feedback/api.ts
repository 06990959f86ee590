// The reader's own feedback through the typed client: sending it, and the list with any replies.
import { client, ok } from '../../api/client';

export const feedbackApi = {
  mine: (page: number, pageSize: number) =>
    ok(client.GET('/api/feedback/mine', { params: { query: { page, pageSize } } })),
  send: (content: string, contact: string) =>
    ok(client.POST('/api/feedback', { body: { content, ...(contact ? { contact } : {}) } })),
};
