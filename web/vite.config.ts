import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { SHARE_TARGET_FILES, SHARE_TARGET_PATH } from './src/features/receipts/share-target';

// The installable app: one manifest per language (the page links the one of its language), the
// same icons, colours and "New entry" shortcut in both. It is a share target: images and PDF files
// shared to it are posted to the service worker (src/sw.ts), which keeps them and opens the add form.
const common = {
  id: '/',
  start_url: '/books',
  scope: '/',
  display: 'standalone',
  orientation: 'portrait',
  theme_color: '#1f55c0',
  background_color: '#f4f5f7',
  categories: ['finance', 'productivity'],
  share_target: {
    action: SHARE_TARGET_PATH,
    method: 'POST',
    enctype: 'multipart/form-data',
    params: {
      title: 'title',
      text: 'text',
      files: [{ name: SHARE_TARGET_FILES, accept: ['image/*', 'application/pdf'] }],
    },
  },
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
} satisfies Partial<ManifestOptions>;

const shortcutIcons = [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }];

export const manifests: Record<'en' | 'zh-CN', Partial<ManifestOptions>> = {
  en: {
    ...common,
    lang: 'en',
    name: 'Ledger',
    short_name: 'Ledger',
    description: 'Personal and shared bookkeeping that also records offline.',
    shortcuts: [{ name: 'New entry', short_name: 'New entry', url: '/books?new=1', icons: shortcutIcons }],
  },
  'zh-CN': {
    ...common,
    lang: 'zh-CN',
    name: '记账本',
    short_name: '记账本',
    description: '个人与多人记账，断网时也能记。',
    shortcuts: [{ name: '记一笔', short_name: '记一笔', url: '/books?new=1', icons: shortcutIcons }],
  },
};

/** Writes the Chinese manifest beside the English one that the PWA plugin writes. */
function chineseManifest(): Plugin {
  return {
    name: 'ledger-manifest-zh',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.zh-CN.webmanifest',
        source: JSON.stringify(manifests['zh-CN'], null, 2),
      });
    },
  };
}

/**
 * The page's first script (src/early.ts) is an entry of its own, written into the page before the
 * app's: small, it arrives one round trip after the page and starts the first screen's reads while
 * the app's larger scripts still download. The app imports it too, so that it loads once and the
 * code both use (the API client) lives in it.
 */
function earlyScript(): Plugin {
  const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  return {
    name: 'ledger-early-script',
    apply: 'build',
    config: () => ({
      build: { rollupOptions: { input: { index: here('./index.html'), early: here('./src/early.ts') } } },
    }),
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const early = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.name === 'early',
        );
        const app = '<script type="module" crossorigin src=';
        if (!early || !html.includes(app))
          throw new Error('the early script or the app script is missing from the page');
        return html.replace(app, `<script type="module" crossorigin src="/${early.fileName}"></script>\n  ${app}`);
      },
    },
  };
}

const PRECOMPRESS = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside every text file of the build larger
 * than 1 KiB, once, at build time: the server sends them as they are (`preCompressed`), so a slow
 * phone downloads the smallest form without the server compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'ledger-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        // the service worker is written by the PWA plugin in a hook of its own that may run after
        // this one: it is small and is revalidated on every visit, so it goes uncompressed
        if (!PRECOMPRESS.test(file) || path.basename(file) === 'sw.js') continue;
        const data = readFileSync(file);
        if (data.length <= 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** On the server, the service worker's registration (never called there) is a stand-in. */
function noServiceWorker(): Plugin {
  const id = 'virtual:pwa-register';
  return {
    name: 'ledger-no-service-worker',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load: (loaded) => (loaded === `\0${id}` ? 'export function registerSW() { return async () => {}; }' : null),
  };
}

// `vite build --ssr src/entry-server.ts` (scripts/build-web.mjs): the server's renderer of the
// first screen, one self-contained module in dist-server/, without the browser's plugins
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild
    ? [vue(), noServiceWorker()]
    : [
        vue(),
        earlyScript(),
        chineseManifest(),
        VitePWA({
          // our own service worker (src/sw.ts): Workbox precaching plus the outbox's Background Sync
          strategies: 'injectManifest',
          srcDir: 'src',
          filename: 'sw.ts',
          registerType: 'prompt',
          injectRegister: false,
          manifest: manifests.en,
          manifestFilename: 'manifest.webmanifest',
          injectManifest: {
            globPatterns: ['**/*.{js,css,html,png,webmanifest}'],
            maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
          },
          devOptions: { enabled: false },
        }),
        precompress(),
      ],
  // features the client does not use, left out of the bundle: the Options API (every component is
  // <script setup>), vue-i18n's legacy API and global components, and the devtools hooks
  define: {
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'false',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
  },
  ssr: { noExternal: true },
  publicDir: isSsrBuild ? false : 'public',
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, target: 'node20', minify: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        reportCompressedSize: true,
        manifest: true,
        chunkSizeWarningLimit: 700,
        // no inline module preload polyfill script: the CSP allows scripts from 'self' only
        modulePreload: { polyfill: false },
      },
  server: { port: 3101, proxy: { '/api': 'http://127.0.0.1:3100' } },
  test: { environment: 'node', include: ['src/**/*.spec.ts'] },
}));
