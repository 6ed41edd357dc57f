// `npm test`: install what is missing, then every check and test: static checks
// (rustfmt, clippy native + wasm32, TypeScript strict, eslint, web import circles, file
// sizes), cargo tests, the build, mutated presets through the WebAssembly engine, web unit
// tests (Vitest), and the browser tests (Playwright in Debian's Chromium).
import { engineDir, env, run, step } from './lib.mjs';

const cargo = (args, extra = {}) => run('cargo', args, { cwd: engineDir, env: { ...env, ...extra } });

run('node', ['scripts/setup.mjs', '--test']);

step('cargo fmt --check');
cargo(['fmt', '--all', '--check']);

step('cargo clippy (native, all targets, -D warnings)');
cargo(['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings']);

step('cargo clippy (wasm32: core + wasm, -D warnings)');
cargo(['clippy', '--target', 'wasm32-unknown-unknown', '-p', 'qoslab-core', '-p', 'qoslab-wasm', '--', '-D', 'warnings']);

step('cargo test');
// setup.mjs --test installed OpenSM, opa-fm, Slurm and MUNGE: the real-parser checks and the
// single-node Slurm cluster test (which also needs root) must not skip.
cargo(['test', '--workspace'], {
  QOSLAB_REQUIRE_OPENSM: '1',
  QOSLAB_REQUIRE_OPAFM: '1',
  QOSLAB_REQUIRE_SLURM: '1',
});

step('build (wasm, CLI, site)');
run('node', ['scripts/build.mjs']);

step('WebAssembly engine: 300 mutated presets, no panic crosses the boundary');
run('node', ['scripts/wasm-presets-fuzz.mjs', '300', '1']);

step('tsc (strict: the page, then the worker) and eslint');
run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
// The engine worker on its own, with the webworker lib (no DOM).
run('npx', ['tsc', '-p', 'tsconfig.worker.json', '--noEmit']);
run('npx', ['eslint', '--max-warnings', '0', '.']);

step('structure: import circles and file sizes');
run('node', ['--test', 'scripts/check-import-cycles.test.mjs']);
run('node', ['scripts/check-import-cycles.mjs']);
run('node', ['scripts/check-web-import-cycles.mjs']);
run('node', ['scripts/check-file-sizes.mjs']);

step('vitest');
run('npx', ['vitest', 'run', '--config', 'web/vite.config.ts']);

step('playwright (Debian Chromium)');
run('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts']);

step('all checks passed');
