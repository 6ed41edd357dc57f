// Checks that the engine's modules import each other without circles.
//
// Every source file is a module (a folder's `mod.rs` is the folder's module). A -> B when
// code in A names B (`crate::...`, `super::...`, `self::...` paths and `use` trees; a name
// a folder re-exports with `pub use child::Name` counts as naming the child). A module
// naming one of its own ancestors is not an edge: a child works in its parent's context.
// A circle (A -> B -> ... -> A) is reported with the files that make each step.
//
// Usage: node scripts/check-import-cycles.mjs [crate src dirs...]   (exit 1 on a circle)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const crates = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['engine/core/src', 'engine/cli/src', 'engine/wasm/src'];

/** Every .rs file under `dir`, with its module path (e.g. ['network', 'fabric', 'ports']). */
function modules(dir, prefix = []) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      out.push(...modules(full, [...prefix, name]));
    } else if (name.endsWith('.rs')) {
      const stem = name.slice(0, -3);
      const isInterface = stem === 'mod' || (prefix.length === 0 && (stem === 'lib' || stem === 'main'));
      out.push({ file: full, path: isInterface ? prefix : [...prefix, stem] });
    }
  }
  return out;
}

/** Code without comments, string literals (so doc links and messages do not count) and
 * `#[cfg(test)]` modules (a file's unit tests are a consumer of it, not part of it). */
function code(text) {
  return withoutTestModules(text)
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/r#*"[\s\S]*?"#*/g, '""')
    .replace(/"(?:\\.|[^"\\])*"/g, '""');
}

/** The module paths a file names: `crate::a::b`, `super::x`, `self::x`, and `use` trees. */
function referencedPaths(text, self) {
  const paths = [];
  const re = /\b((?:crate|super|self)(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*|\{))+)/g;
  for (const m of text.matchAll(re)) {
    const start = m.index + m[1].length;
    const chain = m[1].replace(/::\{$/, '');
    const parts = chain.split('::');
    // `crate` is the root, `self` the file's module, `super` its parent.
    let base = parts[0] === 'crate' ? [] : parts[0] === 'self' ? [...self] : self.slice(0, -1);
    let i = 1;
    while (parts[i] === 'super') {
      base = base.slice(0, -1);
      i += 1;
    }
    const tail = parts.slice(i);
    if (m[1].endsWith('::{')) {
      // A use tree: every first segment inside the braces.
      let depth = 1;
      let j = start;
      let inner = '';
      while (j < text.length && depth > 0) {
        const ch = text[j];
        if (ch === '{') depth += 1;
        if (ch === '}') depth -= 1;
        if (depth > 0) inner += ch;
        j += 1;
      }
      for (const item of splitTop(inner)) {
        const first = item.trim().split(/::|\s|\{/)[0];
        if (first && first !== 'self') paths.push([...base, ...tail, first]);
        else paths.push([...base, ...tail]);
      }
    } else {
      paths.push([...base, ...tail]);
    }
  }
  return paths;
}

function withoutTestModules(text) {
  let out = text;
  for (;;) {
    const m = /#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?mod\s+[a-z_][a-z0-9_]*\s*\{/.exec(out);
    if (!m) return out;
    let depth = 1;
    let j = m.index + m[0].length;
    while (j < out.length && depth > 0) {
      if (out[j] === '{') depth += 1;
      if (out[j] === '}') depth -= 1;
      j += 1;
    }
    out = out.slice(0, m.index) + out.slice(j);
  }
}

function splitTop(s) {
  const items = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '{') depth += 1;
    if (ch === '}') depth -= 1;
    if (ch === ',' && depth === 0) {
      items.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) items.push(cur);
  return items;
}

let circles = 0;
for (const crate of crates) {
  const dir = join(root, crate);
  const mods = modules(dir);
  const key = (path) => path.join('::');
  const known = new Set(mods.map((m) => key(m.path)));
  for (const m of mods) for (let k = 1; k < m.path.length; k += 1) known.add(key(m.path.slice(0, k)));
  const texts = new Map(mods.map((m) => [m.file, code(readFileSync(m.file, 'utf8'))]));
  // Re-exports of folder modules: name -> child module it comes from.
  const reexports = new Map();
  for (const m of mods) {
    if (!isInterfaceFile(m.file)) continue;
    const names = new Map();
    for (const u of texts.get(m.file).matchAll(/pub use ([a-z_][a-z0-9_]*)::([^;]+);/g)) {
      const child = u[1];
      if (!known.has(key([...m.path, child]))) continue;
      for (const n of u[2].match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
        names.set(n.replace(/^.* as /, ''), child);
      }
      for (const a of u[2].matchAll(/as ([A-Za-z_][A-Za-z0-9_]*)/g)) names.set(a[1], child);
    }
    reexports.set(key(m.path), names);
  }
  /** The module `path` names: the longest known prefix, following re-exports. */
  const resolve = (path) => {
    for (let k = path.length; k > 0; k -= 1) {
      const prefix = path.slice(0, k);
      if (!known.has(key(prefix))) continue;
      const item = path[k];
      const child = item && reexports.get(key(prefix))?.get(item);
      return child ? resolve([...prefix, child, ...path.slice(k + 1)]) : prefix;
    }
    return [];
  };
  const graph = new Map();
  for (const m of mods) {
    const from = key(m.path);
    for (const raw of referencedPaths(texts.get(m.file), m.path)) {
      const target = resolve(raw);
      const to = key(target);
      const isAncestor = target.length <= m.path.length && target.every((p, i) => p === m.path[i]);
      if (isAncestor) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const g = graph.get(from);
      if (!g.has(to)) g.set(to, []);
      const where = relative(root, m.file);
      if (!g.get(to).includes(where)) g.get(to).push(where);
    }
  }
  // Declaring or re-exporting one's own children is structure, not an import.
  for (const [from, g] of graph) {
    for (const to of [...g.keys()]) {
      if (from === '' || to.startsWith(`${from}::`)) {
        const text = texts.get(mods.find((m) => key(m.path) === from)?.file ?? '') ?? '';
        const child = to.slice(from ? from.length + 2 : 0).split('::')[0];
        const onlyStructure = new RegExp(`(?:pub(?:\\([a-z]+\\))? )?use (?:self::)?${child}::`).test(text);
        if (onlyStructure) g.delete(to);
      }
    }
  }
  for (const cycle of stronglyConnected(graph)) {
    circles += 1;
    const name = (c) => c || '(crate root)';
    console.error(`${crate}: import circle among ${cycle.map(name).join(', ')}`);
    for (const a of cycle) {
      for (const b of cycle) {
        const w = graph.get(a)?.get(b);
        if (w) console.error(`  ${name(a)} -> ${name(b)}: ${w.join(', ')}`);
      }
    }
  }
}
if (circles > 0) {
  console.error(`${circles} import circle(s)`);
  process.exit(1);
}
console.log(`no import circles in ${crates.join(', ')}`);

function isInterfaceFile(file) {
  return /(?:^|\/)(mod|lib|main)\.rs$/.test(file);
}

/** Tarjan's strongly connected components of size > 1. */
function stronglyConnected(g) {
  const nodes = new Set();
  for (const [a, m] of g) {
    nodes.add(a);
    for (const b of m.keys()) nodes.add(b);
  }
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of g.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  return out;
}
