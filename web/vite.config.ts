/// <reference types="vitest/config" />
// Vite (app build, dev server) and Vitest (web unit tests) configuration.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  // Relative base: the built site works from any static host and any sub-path.
  base: './',
  publicDir: here('../public'),
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: here('../dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  server: { fs: { allow: [here('..')] } },
  test: {
    root: here('.'),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
