import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

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
        if (!PRECOMPRESS.test(file)) continue;
        const data = readFileSync(file);
        if (data.length <= 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [vue(), precompress()],
  build: {
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
});
