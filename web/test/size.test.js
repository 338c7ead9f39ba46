// The browser build's size budget: dist/tabletop.wasm, as `make web` builds it (Go's output
// through wasm-opt -O2), at most 1.2 MB gzip by zlib at level 9 (gzip -9 gives a few KB less).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const BUDGET = 1_200_000;

test("wasm size", async (t) => {
  const wasm = await readFile(new URL("tabletop.wasm", dist));
  await t.test("OK", () => {
    const gz = gzipSync(wasm, { level: 9 }).length;
    assert.ok(gz <= BUDGET, `dist/tabletop.wasm is ${gz} bytes gzip, over the ${BUDGET} budget`);
  });
  await t.test("Optimised", async () => {
    // wasm-opt ran: the module shipped is smaller than the one Go wrote.
    const built = await readFile(new URL("go.wasm", dist));
    assert.ok(wasm.length < built.length, `dist/tabletop.wasm (${wasm.length} bytes) is not smaller than Go's output (${built.length})`);
  });
});
