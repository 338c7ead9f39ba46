// dist/tabletop.js, the module in one file that `make web` builds with esbuild: the same
// exports as tabletop.js, and it finds the engine beside it and works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as source from "../tabletop.js";
import * as bundle from "../dist/tabletop.js";

const run = promisify(execFile);

test("bundle", async (t) => {
  await t.test("OK", async () => {
    const kinds = (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v]));
    assert.deepEqual(kinds(bundle), kinds(source));
    const store = await bundle.openStore("bundle", { inMemory: true });
    try {
      const client = new bundle.TableClient(store, "Bundled");
      await client.createTable();
      await client.createEntity({ partitionKey: "p", rowKey: "r", n: 1.5, big: { value: "-9223372036854775808", type: "Int64" } });
      const e = await client.getEntity("p", "r");
      assert.equal(e.n, 1.5);
      assert.equal(e.big, -9223372036854775808n);
      const err = await client.getEntity("p", "absent").catch((e) => e);
      assert.ok(bundle.isRestError(err), "errors keep their class through the bundle");
      assert.equal(err.name, "RestError");
      assert.equal(err.statusCode, 404);
    } finally {
      await store.close();
    }
  });
  await t.test("OneFile", async () => {
    // A page loads it in one request: no import of another module but Node's own, taken
    // only under Node; Go's wasm_exec.js is in it (see src/bundle.js).
    const url = new URL("../dist/tabletop.js", import.meta.url);
    const text = await readFile(url, "utf8");
    assert.doesNotMatch(text, /^\s*import\s[^(]/m);
    assert.doesNotMatch(text, /\bfrom\s*["'][./]/);
  });
  // Importing the module, and running its engine, leaves globalThis.Go as it was: absent,
  // or the page's own Go glue (another Go program's, of another release).
  for (const [name, file] of [["NoGlobalGo", "../dist/tabletop.js"], ["NoGlobalGo_Source", "../tabletop.js"]]) {
    await t.test(name, async () => {
      const url = new URL(file, import.meta.url).href;
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", globalGoProbe(url, false)]);
      assert.equal(stdout.trim(), "undefined ok", "no global Go after the import and a get");
      const theirs = await run(process.execPath, ["--input-type=module", "-e", globalGoProbe(url, true)]);
      assert.equal(theirs.stdout.trim(), "theirs ok", "the page's own global Go stays, and the engine runs under its own glue");
    });
  }
});

// globalGoProbe is a program that imports the module at url (after defining a global Go
// of its own when theirs), runs an insert and a get in memory, and prints what
// globalThis.Go is then ("undefined", "theirs" or "other") and "ok" if the get answered.
function globalGoProbe(url, theirs) {
  return `
    ${theirs ? "globalThis.Go = class Theirs { constructor() { throw new Error('not this Go'); } };" : ""}
    const m = await import(${JSON.stringify(url)});
    const store = await m.openStore("probe", { inMemory: true });
    const client = new m.TableClient(store, "Probe");
    await client.createTable();
    await client.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
    const ok = (await client.getEntity("p", "r")).n === 1;
    await store.close();
    const go = globalThis.Go === undefined ? "undefined" : globalThis.Go.name === "Theirs" ? "theirs" : "other";
    console.log(go, ok ? "ok" : "failed");
  `;
}
