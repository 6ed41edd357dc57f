#!/usr/bin/env node
// Paired CPU timing with public tools: runs command A and command B alternately (A B A B …)
// N times, each under `/usr/bin/time -f "%U %S"`, and prints the median CPU time (user + sys)
// of each and the median and range of the per-pair ratio A/B. Pairing keeps the ratio fair
// when a shared machine's speed drifts. Used for the paired figures in docs/performance.md.
//
//   node scripts/paired-cpu.mjs -n 8 --a "engine/target/release/qoslab run X.json --quiet -o /dev/null" \
//                                     --b "/tmp/base/qoslab run X.json --quiet -o /dev/null"
//
// --concurrent runs A and B of a pair at the same time, each pinned to a core of its own
// (`taskset`, swapping the cores every pair): on a shared machine whose memory the
// neighbours load unevenly (a memory-bound run taking twice as long from one minute to
// the next), both then see the same load, and the ratio stays steady where one after the
// other it does not. Needs two cores and writes to two different output files.
import { spawn } from 'node:child_process';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const n = Number(arg('-n', '5'));
const concurrent = process.argv.includes('--concurrent');
const a = arg('--a');
const b = arg('--b');
if (!a || !b || !Number.isInteger(n) || n < 1) {
  console.error('usage: paired-cpu.mjs -n PAIRS [--concurrent] --a "COMMAND A" --b "COMMAND B"');
  process.exit(2);
}

/** CPU seconds (user + sys) of one run of `command` (split on spaces, no shell), pinned
 * to `core` when one is given, started now. */
function cpu(command, core = null) {
  const timed = ['/usr/bin/time', '-f', '%U %S', ...command.split(/\s+/).filter((w) => w !== '')];
  const argv = core === null ? timed : ['taskset', '-c', String(core), ...timed];
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => {
      const last = stderr.trim().split('\n').pop() ?? '';
      const [u, s] = last.split(' ').map(Number);
      if (status !== 0 || !Number.isFinite(u) || !Number.isFinite(s)) {
        console.error(`failed (exit ${status}): ${command}\n${stderr}`);
        process.exit(1);
      }
      resolve(u + s);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const as = [];
const bs = [];
for (let i = 0; i < n; i++) {
  if (concurrent) {
    const [x, y] = await Promise.all([cpu(a, i % 2), cpu(b, 1 - (i % 2))]);
    as.push(x);
    bs.push(y);
  } else {
    as.push(await cpu(a));
    bs.push(await cpu(b));
  }
  console.error(`pair ${i + 1}/${n}: A ${as[i].toFixed(3)} s, B ${bs[i].toFixed(3)} s`);
}
const ratios = as.map((x, i) => x / bs[i]);
console.log(`A cpu median ${median(as).toFixed(3)} s, B cpu median ${median(bs).toFixed(3)} s`);
console.log(`A/B median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)} … ${Math.max(...ratios).toFixed(3)}), ${n} pairs${concurrent ? ', concurrent' : ''}`);
