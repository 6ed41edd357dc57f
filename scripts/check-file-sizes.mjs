// Checks that no source file is over 600 lines: *.rs in engine/core/src, *.ts and *.tsx in
// web/src.
//
// The rule: a file's lines are counted whole (as `wc -l` does; comments, blank lines and a
// .rs file's `#[cfg(test)] mod tests` block all count). Left out: test files (*.test.ts,
// *.test.tsx, anything under a `tests/` folder), generated code (web/src/generated/) and the
// wasm glue built into web/src/wasm-pkg/.
//
// scripts/file-size-allowlist.txt names files allowed over the limit for now, one a line:
// `<path>  <reason>` (a reason is required; `#` starts a comment). The list can only shrink:
// an allow-listed file that is missing or no longer over the limit fails the check too, so
// whoever splits it also takes it off the list.
//
// Usage: node scripts/check-file-sizes.mjs   (exit 1 listing every file over the limit)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = 600;
const root = join(fileURLToPath(import.meta.url), '..', '..');
const allowListFile = join(root, 'scripts', 'file-size-allowlist.txt');
const trees = [
  { dir: 'engine/core/src', ext: /\.rs$/ },
  { dir: 'web/src', ext: /\.tsx?$/ },
];
const skippedDirs = new Set(['web/src/generated', 'web/src/wasm-pkg']);

/** Repository-relative path with forward slashes. */
const rel = (full) => relative(root, full).split(sep).join('/');

/** Every checked source file under `dir` (repository-relative). */
function sources(dir, ext) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === 'tests' || skippedDirs.has(path)) continue;
      out.push(...sources(path, ext));
    } else if (ext.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

/** Lines as `wc -l` counts them (a last line without its newline still counts). */
function lineCount(path) {
  const text = readFileSync(join(root, path), 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The allow-list: path -> reason. */
function readAllowList(problems) {
  const allowed = new Map();
  if (!existsSync(allowListFile)) return allowed;
  readFileSync(allowListFile, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/#.*/, '').trim();
      if (line === '') return;
      const [path, ...reason] = line.split(/\s+/);
      if (reason.length === 0) {
        problems.push(`${rel(allowListFile)}:${i + 1}: ${path} has no reason`);
      }
      allowed.set(path, reason.join(' '));
    });
  return allowed;
}

const problems = [];
const allowed = readAllowList(problems);
const over = [];
let checked = 0;
for (const { dir, ext } of trees) {
  for (const path of sources(dir, ext)) {
    checked++;
    const lines = lineCount(path);
    if (lines > LIMIT) over.push({ path, lines });
  }
}
over.sort((a, b) => b.lines - a.lines);

const overPaths = new Set(over.map((f) => f.path));
for (const { path, lines } of over) {
  if (!allowed.has(path)) problems.push(`${path}: ${lines} lines (limit ${LIMIT}): split it`);
}
for (const path of allowed.keys()) {
  if (!existsSync(join(root, path))) {
    problems.push(`${path} is allow-listed but does not exist: take it off ${rel(allowListFile)}`);
  } else if (!overPaths.has(path)) {
    problems.push(`${path} is allow-listed but is ${lineCount(path)} lines now (limit ${LIMIT}): take it off ${rel(allowListFile)}`);
  }
}

if (problems.length > 0) {
  console.error(`Source file sizes (${checked} files checked, limit ${LIMIT} lines):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
const pending = over.map((f) => `${f.path} (${f.lines}: ${allowed.get(f.path)})`);
console.log(
  `${checked} source files within ${LIMIT} lines` +
    (pending.length > 0 ? `, except the allow-listed ${pending.join(', ')}.` : '.'),
);
