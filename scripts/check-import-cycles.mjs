// Checks that the engine's modules import each other without circles.
//
// Every source file is a module: a folder's `mod.rs` is the folder's module, a file
// `foo.rs` with a folder `foo/` is the parent of the files in it, and a `#[path = "x.rs"]
// mod name;` puts x.rs where it is declared. A -> B when code in A names B:
// - absolute paths: `crate::a::b`, `$crate::a::b` (macro bodies), `super::x`, `self::x`,
//   and `use` trees (`crate::a::{b, c::d}`: each item names its own module);
// - relative paths: `child::Item` (a child module, also in macro invocations such as the
//   registries' `bursts::BurstsConfig` lines) and `alias::Item` where `alias` is a module
//   brought in by a `use` (`use super::generators; generators::x`);
// - a name re-exported with `pub use` (from any file, groups and `*` included) counts as
//   naming the module it comes from, followed through chains of re-exports.
// Not edges: a module naming one of its own ancestors (a child works in its parent's
// context), `mod child;` declarations, and `pub use` of a module's own descendants (that
// is structure: whoever names the re-exported item depends on the child). Unit-test
// modules (`#[cfg(test)] mod x { ... }`), comments and string literals are left out.
// A circle (A -> B -> ... -> A) is reported with the files that make each step.
//
// Usage: node scripts/check-import-cycles.mjs [crate src dirs...]   (exit 1 on a circle)
// Tests: node --test scripts/check-import-cycles.test.mjs (fixtures with each kind of path)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const DEFAULT_CRATES = ['engine/core/src', 'engine/cli/src', 'engine/wasm/src'];
const key = (path) => path.join('::');
const NOT_MODULES = new Set(['crate', 'super', 'self', 'Self', 'std', 'core', 'alloc']);

/** Every .rs file under `dir`, with its module path (e.g. ['network', 'fabric', 'ports']). */
function filesystemModules(dir, prefix = []) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      out.push(...filesystemModules(full, [...prefix, name]));
    } else if (name.endsWith('.rs')) {
      const stem = name.slice(0, -3);
      const isInterface = stem === 'mod' || (prefix.length === 0 && (stem === 'lib' || stem === 'main'));
      out.push({ file: full, path: isInterface ? prefix : [...prefix, stem] });
    }
  }
  return out;
}

/** The modules, with `#[path]` declarations moving their files under the declaring module. */
function modules(dir) {
  const mods = filesystemModules(dir);
  const byFile = new Map(mods.map((m) => [m.file, m]));
  for (const m of mods) {
    const text = code(readFileSync(m.file, 'utf8'), { keepStrings: true });
    const re = /#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;/g;
    for (const d of text.matchAll(re)) {
      const target = byFile.get(resolvePath(dirname(m.file), d[1]));
      if (target) target.path = [...m.path, d[2]];
    }
  }
  return mods;
}

/** Code without comments, string literals (so doc links and messages do not count) and
 * `#[cfg(test)]` modules (a file's unit tests are a consumer of it, not part of it). */
function code(text, { keepStrings = false } = {}) {
  const out = withoutTestModules(text)
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  return keepStrings ? out : out.replace(/r#*"[\s\S]*?"#*/g, '""').replace(/"(?:\\.|[^"\\])*"/g, '""');
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

/** The leaves of a use tree `a::b::{c, d::e as f, g::*}` as `{ segs, name }` (name: the
 * name it is known by here, `*` for a glob, `self` items give the prefix's last segment). */
function useLeaves(tree) {
  const t = tree.replace(/\s+/g, ' ').trim();
  const brace = t.indexOf('{');
  if (brace < 0) {
    const [path, alias] = t.split(/\s+as\s+/);
    const segs = path.split('::').map((s) => s.trim()).filter(Boolean);
    if (segs[segs.length - 1] === 'self') segs.pop();
    return segs.length ? [{ segs, name: alias?.trim() ?? segs[segs.length - 1] }] : [];
  }
  const prefix = t.slice(0, brace).replace(/::\s*$/, '');
  const inner = t.slice(brace + 1, t.lastIndexOf('}'));
  const out = [];
  for (const item of splitTop(inner)) {
    for (const leaf of useLeaves(item)) {
      const segs = [...(prefix ? prefix.split('::').map((s) => s.trim()) : []), ...leaf.segs];
      out.push({ segs, name: leaf.name === 'self' ? segs[segs.length - 1] : leaf.name });
    }
    if (item.trim() === 'self' && prefix) {
      const segs = prefix.split('::').map((s) => s.trim());
      out.push({ segs, name: segs[segs.length - 1] });
    }
  }
  return out;
}

/** The `use` statements of a file: `{ pub, leaves, start, end }`. */
function useStatements(text) {
  const out = [];
  const re = /(?:^|[;{}\s])((pub(?:\s*\([a-z ]+\))?\s+)?use\s+([^;]+);)/g;
  for (const m of text.matchAll(re)) {
    const start = m.index + m[0].length - m[1].length;
    out.push({ pub: Boolean(m[2]), leaves: useLeaves(m[3]), start, end: start + m[1].length });
  }
  return out;
}

/** Checks the crates in `crateDirs`; returns the circles found, each `{ crate, cycle, steps }`. */
export function findCircles(crateDirs, base = root) {
  const found = [];
  for (const crate of crateDirs) {
    const dir = resolvePath(base, crate);
    const mods = modules(dir);
    const known = new Set(mods.map((m) => key(m.path)));
    for (const m of mods) for (let k = 1; k < m.path.length; k += 1) known.add(key(m.path.slice(0, k)));
    const texts = new Map(mods.map((m) => [m.file, code(readFileSync(m.file, 'utf8'))]));
    const uses = new Map(mods.map((m) => [m.file, useStatements(texts.get(m.file))]));
    const pathOf = new Map(mods.map((m) => [key(m.path), m]));

    /** The absolute segments of a path written in module `self` (null: not a module path). */
    const absolute = (segs, self, scope) => {
      const [first, ...rest] = segs;
      if (first === 'crate' || first === '$crate') return rest;
      if (first === 'self') return [...self, ...rest];
      if (first === 'super') {
        let b = self.slice(0, -1);
        let i = 1;
        while (segs[i] === 'super') {
          b = b.slice(0, -1);
          i += 1;
        }
        return [...b, ...segs.slice(i)];
      }
      if (NOT_MODULES.has(first)) return null;
      if (known.has(key([...self, first]))) return [...self, ...segs];
      const alias = scope.get(first);
      return alias ? [...alias, ...rest] : null;
    };

    // Names brought into scope that are modules (`use super::generators;`), per file.
    const scopes = new Map();
    for (const m of mods) {
      const scope = new Map();
      for (const u of uses.get(m.file)) {
        for (const leaf of u.leaves) {
          const abs = absolute(leaf.segs, m.path, new Map());
          if (abs && leaf.name !== '*' && known.has(key(abs))) scope.set(leaf.name, abs);
        }
      }
      scopes.set(m.file, scope);
    }

    // Re-exports: per module, name -> absolute path of what it re-exports; and globs.
    const reexports = new Map();
    const globs = new Map();
    for (const m of mods) {
      const names = new Map();
      const star = [];
      for (const u of uses.get(m.file)) {
        if (!u.pub) continue;
        for (const leaf of u.leaves) {
          const abs = absolute(leaf.segs, m.path, scopes.get(m.file));
          if (!abs) continue;
          if (leaf.name === '*') star.push(abs.slice(0, -1));
          else names.set(leaf.name, abs);
        }
      }
      reexports.set(key(m.path), names);
      globs.set(key(m.path), star);
    }
    const defines = (modPath, name) => {
      const m = pathOf.get(key(modPath));
      if (!m) return false;
      const re = new RegExp(`\\b(?:fn|struct|enum|const|static|type|trait|union|mod|macro_rules!)\\s+${name}\\b`);
      return re.test(texts.get(m.file));
    };

    /** The module `path` names: the longest known prefix, following re-exports. */
    const resolve = (path, seen = new Set()) => {
      if (seen.has(key(path))) return [];
      seen.add(key(path));
      for (let k = path.length; k > 0; k -= 1) {
        const prefix = path.slice(0, k);
        if (!known.has(key(prefix))) continue;
        const item = path[k];
        if (!item) return prefix;
        const target = reexports.get(key(prefix))?.get(item);
        if (target) return resolve([...target, ...path.slice(k + 1)], seen);
        if (!defines(prefix, item)) {
          for (const g of globs.get(key(prefix)) ?? []) {
            const via = resolve([...g, ...path.slice(k)], seen);
            if (via.length) return via;
          }
        }
        return prefix;
      }
      return [];
    };

    const graph = new Map();
    const addEdge = (m, target) => {
      const from = key(m.path);
      const isAncestor = target.length <= m.path.length && target.every((p, i) => p === m.path[i]);
      if (isAncestor) return;
      if (!graph.has(from)) graph.set(from, new Map());
      const g = graph.get(from);
      const to = key(target);
      if (!g.has(to)) g.set(to, []);
      const where = relative(base, m.file);
      if (!g.get(to).includes(where)) g.get(to).push(where);
    };
    for (const m of mods) {
      const scope = scopes.get(m.file);
      const isDescendant = (abs) => abs.length > m.path.length && m.path.every((p, i) => p === abs[i]);
      let text = texts.get(m.file);
      // `use` statements: each leaf names its module, except re-exports of descendants.
      for (const u of [...uses.get(m.file)].reverse()) {
        for (const leaf of u.leaves) {
          const abs = absolute(leaf.segs, m.path, scope);
          if (!abs || (u.pub && isDescendant(abs))) continue;
          addEdge(m, resolve(leaf.name === '*' ? abs.slice(0, -1) : abs));
        }
        text = text.slice(0, u.start) + ' '.repeat(u.end - u.start) + text.slice(u.end);
      }
      // Paths in the code (module declarations carry no `::`).
      const re = /(?<![A-Za-z0-9_:])(\$?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)/g;
      for (const p of text.matchAll(re)) {
        const abs = absolute(p[1].split('::'), m.path, scope);
        if (abs) addEdge(m, resolve(abs));
      }
    }
    for (const cycle of stronglyConnected(graph)) {
      const steps = [];
      for (const a of cycle) {
        for (const b of cycle) {
          const w = graph.get(a)?.get(b);
          if (w) steps.push({ from: a, to: b, files: w });
        }
      }
      found.push({ crate, cycle, steps });
    }
  }
  return found;
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolvePath(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const crates = args.length ? args : DEFAULT_CRATES;
  for (const c of crates) {
    if (!existsSync(resolvePath(root, c))) {
      console.error(`no such directory: ${c}`);
      process.exit(2);
    }
  }
  const circles = findCircles(crates);
  const name = (c) => c || '(crate root)';
  for (const { crate, cycle, steps } of circles) {
    console.error(`${crate}: import circle among ${cycle.map(name).join(', ')}`);
    for (const s of steps) console.error(`  ${name(s.from)} -> ${name(s.to)}: ${s.files.join(', ')}`);
  }
  if (circles.length > 0) {
    console.error(`${circles.length} import circle(s)`);
    process.exit(1);
  }
  console.log(`no import circles in ${crates.join(', ')}`);
}
