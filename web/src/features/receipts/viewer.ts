// Opening an attachment full size: an image in the page's viewer (AttachmentFull.vue), a PDF in a
// tab of its own. Each strip or row has a viewer of its own.
import { ref } from 'vue';
import { describeError } from '../../i18n';
import { useAttachments } from './store';

/** What opening needs to know of an attachment. */
export interface Openable {
  id: number;
  name: string;
  mime: string;
}

export function useViewer() {
  const store = useAttachments();
  /** the image shown full size ('' while it is read) */
  const full = ref<{ name: string; src: string } | null>(null);
  const error = ref('');

  async function open(a: Openable) {
    error.value = '';
    try {
      if (a.mime === 'application/pdf') return await store.openFile(a.id);
      full.value = { name: a.name, src: '' };
      const src = await store.picture(a.id);
      if (full.value?.name === a.name) full.value = { name: a.name, src };
    } catch (err) {
      full.value = null;
      error.value = describeError(err);
    }
  }
  return { full, error, open, close: () => (full.value = null) };
}
