// Installs whatever is missing for building (and, with --test, for testing) qoslab:
// npm packages, the wasm32 Rust target, the wasm-bindgen CLI matching the pinned crate,
// and (--test) Debian's Chromium for Playwright, OpenSM, and Slurm with MUNGE. Safe to run repeatedly: each step is
// skipped when already satisfied.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { capture, existsSync, pinnedWasmBindgenVersion, root, run, step } from './lib.mjs';

const forTests = process.argv.includes('--test');

export const CHROMIUM = '/usr/bin/chromium';

function npmPackages() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  step('npm ci (installing npm packages)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function wasmTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed']) ?? '';
  if (installed.split('\n').includes('wasm32-unknown-unknown')) return;
  step('rustup target add wasm32-unknown-unknown');
  run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
}

function wasmBindgenCli() {
  const want = pinnedWasmBindgenVersion();
  const have = (capture('wasm-bindgen', ['--version']) ?? '').trim().split(' ')[1];
  if (have === want) return;
  step(`cargo install wasm-bindgen-cli ${want} (found ${have ?? 'none'}; takes a few minutes)`);
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', want, '--force']);
}

/** Debian packages the tests need: Chromium (browser tests), OpenSM (its option parser), opa-fm
 * (config_check), Slurm and MUNGE (engine/cli/tests/slurm_cluster.rs starts a single-node cluster). */
const DEBIAN_PACKAGES = [
  { name: 'chromium', binary: CHROMIUM, why: "Debian's Chromium for the browser tests" },
  { name: 'opensm', binary: '/usr/sbin/opensm', why: "OpenSM, to check exported qos_* options with the real parser" },
  { name: 'opa-fm', binary: '/usr/lib/opa-fm/bin/config_check', why: "the Omni-Path fabric manager, to check exported opafm.xml with its config_check" },
  { name: 'slurm-wlm', binary: '/usr/sbin/slurmctld', why: 'Slurm, for the single-node cluster test of qoslab sweep --slurm' },
  { name: 'munge', binary: '/usr/sbin/munged', why: "MUNGE, Slurm's authentication" },
];

function debianPackages() {
  const missing = DEBIAN_PACKAGES.filter((p) => !existsSync(p.binary));
  if (missing.length === 0) return;
  step(`apt-get install ${missing.map((p) => p.name).join(' ')} (${missing.map((p) => p.why).join('; ')})`);
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...missing.map((p) => p.name)]);
}

npmPackages();
wasmTarget();
wasmBindgenCli();
if (forTests) debianPackages();
