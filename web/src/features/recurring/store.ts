// The reader's recurring rules: loading, errors, a stale answer dropped, and a reload after every
// change. Views call the store, not the API.
import { reactive } from 'vue';
import type { RecurringInput, RecurringRule } from '../../api/types';
import { describeError } from '../../i18n';
import { recurringApi, type RuleUpdate } from './api';

export const recurringStore = reactive({
  rules: [] as RecurringRule[],
  loading: false,
  error: '',
  seq: 0,

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    try {
      const list = await recurringApi.list();
      if (seq !== this.seq) return;
      this.rules = list;
      this.error = '';
    } catch (err) {
      if (seq === this.seq) this.error = describeError(err);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  },

  async create(body: RecurringInput): Promise<void> {
    await recurringApi.create(body);
    await this.load();
  },

  async update(id: number, body: RuleUpdate): Promise<void> {
    await recurringApi.update(id, body);
    await this.load();
  },

  async remove(id: number): Promise<void> {
    await recurringApi.remove(id);
    await this.load();
  },
});
