import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [vue()],
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
