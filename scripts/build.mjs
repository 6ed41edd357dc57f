// Builds everything: the engine as WebAssembly (+ JS bindings for the worker), the
// native CLI, and the static site in dist/ (relative base path: serve it from anywhere).
import { join } from 'node:path';
import { engineDir, root, run, step, targetDir } from './lib.mjs';

const skipWeb = process.argv.includes('--engine-only');

step('cargo build (wasm32, release)');
run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'qoslab-wasm'], { cwd: engineDir });

step('wasm-bindgen --target web -> web/src/wasm-pkg');
run('wasm-bindgen', [
  '--target', 'web',
  '--out-dir', join(root, 'web', 'src', 'wasm-pkg'),
  join(targetDir, 'wasm32-unknown-unknown', 'release', 'qoslab_wasm.wasm'),
]);

step('cargo build (native CLI, release) -> <target>/release/qoslab');
run('cargo', ['build', '--release', '-p', 'qoslab-cli'], { cwd: engineDir });

if (!skipWeb) {
  step('vite build -> dist/');
  run('npx', ['vite', 'build', '--config', 'web/vite.config.ts']);
}
