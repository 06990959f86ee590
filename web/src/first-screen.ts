// A page whose first screen the server rendered (src/plugins/first-screen.ts): its markup shows,
// inert, while the app renders the same screen out of sight from the answers the page brought
// (early.ts); the app's own then takes its place in one step, so that nothing blinks or moves. A
// first screen that is not this browser's person's (signed out here, another person's tokens)
// is removed at once.
import type { App } from 'vue';
import type { Router } from 'vue-router';

/** longest the server's markup stays when the app's own screen does not come (a failed read, say) */
const LONGEST_MS = 5000;

export function mountOverFirstScreen(app: App, router: Router, mine: boolean): void {
  const first = document.querySelector<HTMLElement>('#app[data-first-screen]');
  if (!first || !mine) {
    if (first) {
      first.replaceChildren();
      first.removeAttribute('inert');
    }
    app.mount('#app');
    return;
  }
  const ready = first.dataset.firstScreen ?? '';
  const own = document.createElement('div');
  own.id = 'app';
  app.mount(own);
  const startPath = location.pathname;
  let done = false;
  const takeOver = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    // the charts the server drew stay until the app draws its own over them (EChart.vue)
    const drawn = [...first.querySelectorAll('.chart')];
    own.querySelectorAll('.chart').forEach((chart, i) => {
      const svg = drawn[i]?.querySelector(':scope > svg');
      if (svg && !chart.firstChild) chart.append(svg);
    });
    first.replaceWith(own);
  };
  let routed = false;
  const check = () => {
    // the screen came, or the app went elsewhere (sign-in after a session that ended, say)
    const elsewhere = routed && router.currentRoute.value.path !== startPath.replace(/^\/$/, '/books');
    if (own.querySelector(ready) || elsewhere) takeOver();
  };
  const observer = new MutationObserver(check);
  observer.observe(own, { childList: true, subtree: true });
  const timer = setTimeout(takeOver, LONGEST_MS);
  void router.isReady().then(() => {
    routed = true;
    check();
  });
}
