// Playwright: Debian's Chromium only (never downloads a browser), against the built
// site served by `vite preview`.
import { defineConfig } from '@playwright/test';

// QOSLAB_E2E_PORT moves both servers (port and port + 1), e.g. when another checkout's
// tests are running on the same machine.
const port = Number(process.env.QOSLAB_E2E_PORT ?? 4173);
/** The plain static server of static-host.spec.ts. */
export const staticPort = port + 1;
export const staticPrefix = '/some/deep/path/';

export default defineConfig({
  testDir: '.',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      command: `npx vite preview --config web/vite.config.ts --port ${port} --strictPort --host 127.0.0.1`,
      cwd: '..',
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // dist/ under a sub-path on a plain static server (see static-host.spec.ts).
      command: `node e2e/static-server.mjs ${staticPort} ${staticPrefix}`,
      cwd: '..',
      url: `http://127.0.0.1:${staticPort}${staticPrefix}`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
