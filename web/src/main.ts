// first: the first screen's reads start before anything else runs (in a build the page loads it
// on its own, ahead of this script)
import './early';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { router } from './router';
import { watchMissingRates } from './features/rates/watch';
import { i18n } from './i18n';
import { installOffline } from './features/offline/pwa';
import './style.css';
import { applyTheme } from './features/appearance/theme';

applyTheme();
installOffline(router);
const pinia = createPinia();
watchMissingRates(pinia);
createApp(App).use(pinia).use(i18n).use(router).mount('#app');
