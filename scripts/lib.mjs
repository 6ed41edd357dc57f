// Shared helpers for the project scripts. Node built-ins only: these run before
// `npm ci` has installed anything.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const engineDir = join(root, 'engine');
/** Cargo's output folder (honours CARGO_TARGET_DIR, e.g. one shared by several clones). */
export const targetDir = process.env.CARGO_TARGET_DIR ?? join(engineDir, 'target');
export const cargoBin = join(process.env.CARGO_HOME ?? join(process.env.HOME ?? '/root', '.cargo'), 'bin');

/** PATH with ~/.cargo/bin first, so freshly installed cargo tools are found. */
export const env = {
  ...process.env,
  PATH: `${cargoBin}:${process.env.PATH ?? ''}`,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
};

/** Prints a step heading with the elapsed time of the whole script. */
const started = Date.now();
export function step(title) {
  const s = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  console.log(`\n[${s}s] == ${title}`);
}

/** Runs a command, inheriting stdio; exits the script if it fails. */
export function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, cwd: root, ...opts });
  if (r.error) {
    console.error(`cannot start ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) {
    console.error(`\nFAILED (exit ${r.status}): ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

/** Runs a command and returns its stdout, or null if it cannot run or fails. */
export function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, cwd: root, ...opts });
  if (r.error || r.status !== 0) return null;
  return r.stdout;
}

/** The wasm-bindgen crate version pinned in engine/Cargo.lock (the CLI must match it). */
export function pinnedWasmBindgenVersion() {
  const lock = readFileSync(join(engineDir, 'Cargo.lock'), 'utf8');
  const m = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error('wasm-bindgen not found in engine/Cargo.lock');
  return m[1];
}

export { existsSync };
