// Simulation speed of the WebAssembly build under Node (the same engine the browser
// worker runs): runs a scenario N times and prints events per second (and, for networks,
// packet-hops per second: packets sent on a link).
// Usage: node scripts/bench-wasm.mjs [scenario.json] [repetitions] [duration_ms]
// (duration_ms overrides the scenario's simulated time, keeping the warm-up's share).
// Needs `npm run build` (or `node scripts/build.mjs --engine-only`) first. QOSLAB_WASM_PKG
// names another wasm-bindgen output folder (to pair two builds of the engine).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const pkg = process.env.QOSLAB_WASM_PKG ?? join(root, 'web', 'src', 'wasm-pkg');
const { initSync, Simulation } = await import(join(pkg, 'qoslab_wasm.js'));
initSync({ module: readFileSync(join(pkg, 'qoslab_wasm_bg.wasm')) });

const file = process.argv[2] ?? join(root, 'public', 'presets', 'default.json');
const reps = Number(process.argv[3] ?? 10);
let text = readFileSync(file, 'utf8');
const durationMs = process.argv[4] === undefined ? null : Number(process.argv[4]);
if (durationMs !== null) {
  const s = JSON.parse(text);
  const share = s.warmup_us / s.duration_us;
  s.duration_us = Math.round(durationMs * 1000);
  s.warmup_us = Math.floor(s.duration_us * share);
  text = JSON.stringify(s);
}

const times = [];
let events = 0;
let hops = null;
for (let i = 0; i < reps; i++) {
  const t0 = performance.now();
  const sim = new Simulation(text);
  while (!sim.advance(1 << 16)) {
    // run to the end
  }
  times.push(performance.now() - t0);
  events = sim.events();
  hops = JSON.parse(sim.results_json()).packet_hops ?? null;
  sim.free();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`${file}: ${events} events, median ${median.toFixed(1)} ms over ${reps} runs ` +
  `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}) = ${(events / median / 1000).toFixed(2)} M events/s` +
  (hops === null ? '' : `, ${hops} packet-hops = ${(hops / median / 1000).toFixed(2)} M packet-hops/s`));
