// Fixtures for check-import-cycles.mjs: one small crate per way two modules can name each
// other, each with a circle the check must find (and the same crate with the circle cut,
// which it must accept). Run: node --test scripts/check-import-cycles.test.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { findCircles } from './check-import-cycles.mjs';

const base = mkdtempSync(join(tmpdir(), 'import-cycles-'));
after(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
/** Writes `files` ({ 'a/mod.rs': text }) as a crate and returns the circles found. */
function circles(files) {
  n += 1;
  const dir = join(base, `crate${n}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return findCircles([dir]).map((c) => c.cycle);
}

const LIB = 'mod a;\nmod b;\n';

test('crate:: paths', () => {
  assert.deepEqual(
    circles({ 'lib.rs': LIB, 'a.rs': 'use crate::b::B;\npub struct A;', 'b.rs': 'pub fn f(_: crate::a::A) {}' }),
    [['a', 'b']],
  );
  assert.deepEqual(circles({ 'lib.rs': LIB, 'a.rs': 'use crate::b::B;\npub struct A;', 'b.rs': 'pub struct B;' }), []);
});

test('use super:: and super::super::', () => {
  assert.deepEqual(
    circles({
      'lib.rs': 'mod t;',
      't/mod.rs': 'mod a;\nmod b;',
      't/a.rs': 'use super::b::B;\npub struct A;',
      't/b.rs': 'mod inner;\npub struct B;\nfn f() { inner::g() }',
      't/b/inner.rs': 'use super::super::a::A;\npub fn g() {}',
    }),
    [['t::a', 't::b', 't::b::inner']],
  );
});

test('crate::a::{b, c} groups name each item', () => {
  const files = {
    'lib.rs': 'mod t;',
    't/mod.rs': 'pub mod config;\npub mod gen;\npub mod limits;',
    't/config.rs': 'use crate::t::{gen::G, limits};\npub struct C;',
    't/limits.rs': 'pub const MAX: u32 = 1;',
  };
  assert.deepEqual(circles({ ...files, 't/gen.rs': 'use crate::t::{config::C, limits::MAX};\npub struct G;' }), [
    ['t::config', 't::gen'],
  ]);
  assert.deepEqual(circles({ ...files, 't/gen.rs': 'use crate::t::{limits::MAX};\npub struct G;' }), []);
});

test('pub use re-exports, in mod.rs, in a file module, as groups and globs', () => {
  // `config` re-exports the limits: naming config::MAX names limits, not config.
  const files = {
    'lib.rs': 'mod t;',
    't/mod.rs': 'pub mod config;\npub mod gen;\npub mod limits;',
    't/config.rs': 'pub use super::limits::*;\nuse super::gen::G;\npub struct C;',
    't/limits.rs': 'pub const MAX: u32 = 1;',
  };
  assert.deepEqual(circles({ ...files, 't/gen.rs': 'use crate::t::config::MAX;\npub struct G;' }), []);
  assert.deepEqual(circles({ ...files, 't/gen.rs': 'use crate::t::config::{C, MAX};\npub struct G;' }), [
    ['t::config', 't::gen'],
  ]);
  // A folder re-exporting a child: naming the folder's name names the child.
  assert.deepEqual(
    circles({
      'lib.rs': 'mod a;\nmod b;',
      'a/mod.rs': 'mod x;\npub use x::X;',
      'a/x.rs': 'use crate::b::B;\npub struct X;',
      'b.rs': 'use crate::a::X;\npub struct B;',
    }),
    [['a::x', 'b']],
  );
  // A file module with a folder of children (`v.rs` + `v/`) re-exports the same way.
  assert.deepEqual(
    circles({
      'lib.rs': 'mod v;\nmod b;',
      'v.rs': 'mod w;\npub use w::W;',
      'v/w.rs': 'use crate::b::B;\npub struct W;',
      'b.rs': 'use crate::v::W;\npub struct B;',
    }),
    [['b', 'v::w']],
  );
});

test('macro-generated paths: a registry line naming a child', () => {
  // As `traffic/generators/mod.rs`: `registry! { "bursts" => Bursts(bursts::Config), }`
  // makes the folder use its child, which here uses the folder's user back.
  const files = {
    'lib.rs': 'mod config;\nmod gens;\nmod limits;',
    'config.rs': 'use crate::gens::GenConfig;\npub struct C(GenConfig);',
    'limits.rs': 'pub const MAX: u32 = 1;',
    'gens/mod.rs': 'registry! { "bursts" => Bursts(bursts::BurstsConfig), }',
  };
  assert.deepEqual(circles({ ...files, 'gens/bursts.rs': 'use crate::config::C;\npub struct BurstsConfig;' }), [
    ['config', 'gens', 'gens::bursts'],
  ]);
  assert.deepEqual(circles({ ...files, 'gens/bursts.rs': 'use crate::limits::MAX;\npub struct BurstsConfig;' }), []);
  // `$crate::` paths in a macro body count for the file that holds the macro.
  assert.deepEqual(
    circles({
      'lib.rs': LIB,
      'a.rs': 'macro_rules! m { () => { $crate::b::f() } }\npub struct A;',
      'b.rs': 'pub fn f(_: crate::a::A) {}',
    }),
    [['a', 'b']],
  );
});

test('a module brought in by use, then named relative to it', () => {
  assert.deepEqual(
    circles({ 'lib.rs': LIB, 'a.rs': 'use crate::b;\npub struct A;\nfn g() { b::f() }', 'b.rs': 'pub fn f(_: crate::a::A) {}' }),
    [['a', 'b']],
  );
});

test('#[path] modules sit where they are declared', () => {
  // `s/np.rs` declares `#[path = "np_fair.rs"] mod fair;`: fair is s::np::fair, so its
  // `super::` is s::np (an ancestor, not an edge), and np's own calls into it count.
  assert.deepEqual(
    circles({
      'lib.rs': 'mod s;\nmod x;',
      's/mod.rs': 'mod np;',
      's/np.rs': '#[path = "np_fair.rs"]\nmod fair;\npub struct Np;\nfn v() { fair::check() }',
      's/np_fair.rs': 'use super::Np;\nuse crate::x::X;\npub fn check() {}',
      'x.rs': 'use crate::s::np::Np;\npub struct X;',
    }),
    [['s::np', 's::np::fair', 'x']],
  );
});

test('not circles: ancestors, unit tests, comments and strings, re-exports of children', () => {
  assert.deepEqual(
    circles({
      'lib.rs': 'mod a;\nmod b;',
      'a/mod.rs': 'pub mod x;\npub use x::X;\n/// See crate::b::B.\nconst S: &str = "crate::b::B";',
      'a/x.rs': 'use super::S;\nuse crate::b::B;\npub struct X;',
      'b.rs': 'pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::X;\n}',
    }),
    [],
  );
});

test('the engine has no import circles', () => {
  assert.deepEqual(findCircles(['engine/core/src', 'engine/cli/src', 'engine/wasm/src']).map((c) => c.cycle), []);
});
