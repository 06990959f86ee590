// first: the first screen's reads start before anything else runs (in a build the page loads it
// on its own, ahead of this script)
import { firstScreenIsMine } from './early';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { router } from './router';
import { watchMissingRates } from './features/rates/watch';
import { i18n } from './i18n';
import { installOffline } from './features/offline/pwa';
import './style.css';
import { applyTheme } from './features/appearance/theme';
import { mountOverFirstScreen } from './first-screen';

applyTheme();
installOffline(router);
const pinia = createPinia();
watchMissingRates(pinia);
mountOverFirstScreen(createApp(App).use(pinia).use(i18n).use(router), router, firstScreenIsMine());
