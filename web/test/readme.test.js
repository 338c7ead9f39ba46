// The README's browser snippet, run as written under Node (fake IndexedDB): its import of
// "@tabletopdb/tabletop" resolves to this package itself (package.json's name and
// exports), the bundle `make web` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import "fake-indexeddb/auto";

const here = dirname(fileURLToPath(import.meta.url));

test("the README's browser snippet runs as written", async (t) => {
  const readme = readFileSync(join(here, "..", "..", "README.md"), "utf8");
  const m = /## Getting started: in the browser\s*```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, "README.md has no browser snippet");
  const file = join(here, `readme-snippet-${process.pid}.mjs`);
  writeFileSync(file, m[1]);
  t.after(() => rmSync(file, { force: true }));
  const logged = [];
  const log = console.log;
  console.log = (...a) => logged.push(a);
  try {
    await import(file);
  } finally {
    console.log = log;
  }
  assert.equal(logged.length, 1);
  assert.equal(logged[0][0].name, "Ada");
  assert.equal(logged[0][0].salary, 120000n);
});
