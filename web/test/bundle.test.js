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
    // only under Node; Go's wasm_exec.js is in it (see src/bundle.js), so importing it in
    // a fresh process defines Go's glue before any engine loads.
    const url = new URL("../dist/tabletop.js", import.meta.url);
    const text = await readFile(url, "utf8");
    assert.doesNotMatch(text, /^\s*import\s[^(]/m);
    assert.doesNotMatch(text, /\bfrom\s*["'][./]/);
    const probe = `await import(${JSON.stringify(url.href)}); console.log(typeof globalThis.Go);`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", probe]);
    assert.equal(stdout.trim(), "function", "importing dist/tabletop.js defines globalThis.Go");
  });
});
