// Simulation speed of the WebAssembly build under Node (the same engine the browser
// worker runs): runs a scenario N times and prints events per second.
// Usage: node scripts/bench-wasm.mjs [scenario.json] [repetitions]
// Needs `npm run build` (or `node scripts/build.mjs --engine-only`) first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const pkg = join(root, 'web', 'src', 'wasm-pkg');
const { initSync, Simulation } = await import(join(pkg, 'qoslab_wasm.js'));
initSync({ module: readFileSync(join(pkg, 'qoslab_wasm_bg.wasm')) });

const file = process.argv[2] ?? join(root, 'public', 'presets', 'default.json');
const reps = Number(process.argv[3] ?? 10);
const text = readFileSync(file, 'utf8');

const times = [];
let events = 0;
for (let i = 0; i < reps; i++) {
  const t0 = performance.now();
  const sim = new Simulation(text);
  while (!sim.advance(1 << 16)) {
    // run to the end
  }
  times.push(performance.now() - t0);
  events = sim.events();
  sim.free();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`${file}: ${events} events, median ${median.toFixed(1)} ms over ${reps} runs ` +
  `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}) = ${(events / median / 1000).toFixed(2)} M events/s`);
