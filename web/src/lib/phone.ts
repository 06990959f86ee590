// Whether the page is as narrow as a phone (the layout's own breakpoint), kept up to date.
import { ref } from 'vue';

const query = typeof window === 'undefined' ? null : window.matchMedia('(max-width: 600px)');
export const isPhone = ref(query?.matches ?? false);
query?.addEventListener('change', (e) => (isPhone.value = e.matches));
