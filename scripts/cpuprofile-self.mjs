// Self time per function from a V8 CPU profile (`node --cpu-prof`), to compare the
// WebAssembly engine's profile with a native `perf report` (docs/performance.md, eighth
// stop). The module keeps its name section, so functions carry their Rust names.
// Usage: node scripts/cpuprofile-self.mjs FILE.cpuprofile [rows]
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: cpuprofile-self.mjs FILE.cpuprofile [rows]');
  process.exit(2);
}
const rows = Number(process.argv[3] ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const dt = profile.timeDeltas[i] ?? 0;
  const name = node.callFrame.functionName || `(anonymous ${node.callFrame.url})`;
  self.set(name, (self.get(name) ?? 0) + dt);
  total += dt;
});
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, rows);
for (const [name, t] of top) {
  console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`);
}
