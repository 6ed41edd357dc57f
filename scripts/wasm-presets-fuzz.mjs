// Mutated presets through the WebAssembly engine (the one the browser's worker runs): every
// preset in public/presets/ with one to four values replaced by edge values or wrong
// types, scaled, removed, duplicated or swapped for the same key's value in another preset
// (as the Rust fuzzer's `presets` surface, engine/core/tests/fuzz_inputs/presets.rs). Each
// input is built; an accepted one runs up to 20 000 events and reports its results. A
// `WebAssembly.RuntimeError` (a trap: a Rust panic reaching the boundary) fails the run;
// refusals must be ordinary errors with a message.
// Usage: node scripts/wasm-presets-fuzz.mjs [inputs] [seed]   (default 1 000 inputs, seed 1)
// Needs `npm run build` (or `node scripts/build.mjs --engine-only`) first; QOSLAB_WASM_PKG
// names another wasm-bindgen output folder.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const pkg = process.env.QOSLAB_WASM_PKG ?? join(root, 'web', 'src', 'wasm-pkg');
const { initSync, Simulation } = await import(join(pkg, 'qoslab_wasm.js'));
initSync({ module: readFileSync(join(pkg, 'qoslab_wasm_bg.wasm')) });

const inputs = Number(process.argv[2] ?? 1000);
let seed = Number(process.argv[3] ?? 1) >>> 0;
/** mulberry32: a small seeded generator, so a run can be repeated. */
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];

const dir = join(root, 'public', 'presets');
const presets = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && f !== 'index.json')
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
const edges = [0, 1, 2, -1, 63, 64, 65, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 53, 0.5,
  -0, 1e-320, 1e-9, 0.999999, 1.000001, 1e9, 1e300, '', 'x', null, true, [], {}];
const byKey = new Map();
(function collect(v) {
  if (Array.isArray(v)) v.forEach(collect);
  else if (v && typeof v === 'object') {
    for (const [k, c] of Object.entries(v)) {
      if (!byKey.has(k)) byKey.set(k, []);
      byKey.get(k).push(c);
      collect(c);
    }
  }
})(presets);

/** Every [parent, key] pair of `doc`, parents first. */
function places(doc) {
  const out = [];
  (function walk(v) {
    if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        out.push([v, Array.isArray(v) ? Number(k) : k]);
        walk(v[k]);
      }
    }
  })(doc);
  return out;
}

function mutate(doc) {
  const changes = 1 + Math.floor(random() * 4);
  for (let i = 0; i < changes; i++) {
    const all = places(doc);
    if (all.length === 0) break;
    const [parent, key] = pick(all);
    const how = Math.floor(random() * 5);
    if (how === 0) parent[key] = structuredClone(pick(edges));
    else if (how === 1 && typeof parent[key] === 'number') {
      parent[key] *= pick([0, 0.001, 0.5, 1.5, 2, 10, 1000, 1e6, -1]);
    } else if (how === 2) {
      if (Array.isArray(parent)) parent.splice(key, 1);
      else delete parent[key];
    } else if (how === 3 && Array.isArray(parent)) parent.push(structuredClone(parent[key]));
    else if (how === 4 && typeof key === 'string' && byKey.has(key)) {
      parent[key] = structuredClone(pick(byKey.get(key)));
    }
  }
  return doc;
}

let accepted = 0;
let refused = 0;
const traps = [];
for (let n = 0; n < inputs; n++) {
  const text = JSON.stringify(mutate(structuredClone(pick(presets))));
  let sim = null;
  try {
    sim = new Simulation(text);
    sim.advance(20000);
    sim.results_json();
    accepted++;
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) traps.push({ n, error: String(e), text });
    else if (sim === null && String(e?.message ?? e).length > 0) refused++;
    else traps.push({ n, error: `not a refusal: ${String(e)}`, text });
  } finally {
    try {
      sim?.free();
    } catch {
      // after a trap the instance may refuse; the trap is reported above
    }
  }
}
console.log(`${inputs} inputs (seed ${process.argv[3] ?? 1}): ${accepted} ran, ${refused} refused with a message, ${traps.length} failures`);
for (const t of traps.slice(0, 3)) console.log(`input ${t.n}: ${t.error}\n${t.text.slice(0, 2000)}`);
process.exit(traps.length === 0 ? 0 : 1);
