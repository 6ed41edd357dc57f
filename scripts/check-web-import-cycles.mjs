// Checks that the web app's modules import each other without circles, at two levels:
//
// 1. Files: no circle of imports between the files of web/src (madge's module graph;
//    `import type` counts, since a type-only circle is still a design circle).
// 2. Folders: no circle between the top-level folders of web/src (lab/, sweep/, state/, ...;
//    files directly in web/src count as one folder, "(root)"). A folder that others import
//    must not import them back: shared pieces live in a leaf folder (e.g. web/src/shared/).
//    Test files (*.test.ts, *.test.tsx) are left out here: a test is a consumer of what it
//    tests and may use any folder to build its fixtures; nothing imports a test.
//
// Files outside web/src (JSON presets, the wasm glue in web/src/wasm-pkg when built) are
// leaves and are not checked.
//
// Usage: node scripts/check-web-import-cycles.mjs [src dir, default web/src]   (exit 1 listing every circle)
// The same file-level check by hand: npx madge --circular --extensions ts,tsx --ts-config tsconfig.json web/src
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const srcDir = process.argv[2] ?? join(root, 'web', 'src');

const result = await madge(srcDir, {
  fileExtensions: ['ts', 'tsx'],
  tsConfig: join(root, 'tsconfig.json'),
});

const problems = [];

// 1. File-level circles.
const fileCircles = result.circular();
for (const circle of fileCircles) {
  problems.push(`file circle: ${[...circle, circle[0]].join(' -> ')}`);
}

// 2. Folder-level circles: strongly connected components of the folder graph.
const graph = result.obj(); // file (relative to web/src) -> files it imports
const folderOf = (file) => (file.includes('/') ? file.split('/')[0] : '(root)');
const isTest = (file) => /\.test\.tsx?$/.test(file);
const inSrc = (file) => !file.startsWith('..') && Object.hasOwn(graph, file);
/** folder -> folder -> [file -> file, ...] (the imports that make the edge) */
const edges = new Map();
for (const [from, tos] of Object.entries(graph)) {
  if (isTest(from)) continue;
  for (const to of tos) {
    if (!inSrc(to)) continue;
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    const out = edges.get(a);
    if (!out.has(b)) out.set(b, []);
    out.get(b).push(`${from} -> ${to}`);
  }
}

// Tarjan's algorithm; the folder graph is small, recursion is fine.
const folders = [...new Set([...Object.keys(graph).filter(inSrc).map(folderOf)])].sort();
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
let counter = 0;
function visit(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v), index.get(w)));
    }
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const f of folders) if (!index.has(f)) visit(f);

for (const component of components) {
  const lines = [`folder circle between ${component.map((f) => `${f}/`).join(', ')}; the imports inside it:`];
  for (const a of component) {
    for (const [b, imports] of [...(edges.get(a) ?? new Map())].sort()) {
      if (!component.includes(b)) continue;
      for (const imp of imports) lines.push(`    ${a}/ -> ${b}/: ${imp}`);
    }
  }
  problems.push(lines.join('\n'));
}

const fileCount = Object.keys(graph).length;
if (problems.length > 0) {
  console.error(`Import circles in web/src (${fileCount} files checked):`);
  for (const p of problems) console.error(`  ${p}`);
  console.error('\nBreak each circle by moving the shared piece into a leaf module (e.g. web/src/shared/).');
  process.exit(1);
}
console.log(`web/src: no import circles between ${fileCount} files or between ${folders.length} folders.`);
