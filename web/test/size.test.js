// The browser build's size budget: dist/tabletop.wasm, as `make web` builds it (Go's output
// through wasm-opt -O3, then its data segments packed by scripts/packdata -column), at most
// 1.2 MB gzip by zlib at level 9 (gzip -9 gives a few KB less).
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
    // wasm-opt -O3 ran: the code shipped is at least 5% smaller than the code Go wrote
    // (6.3% when measured; -O2 took 0.6%). Every byte of the module is read again on each
    // warm start, from Cache Storage through V8's streaming decoder.
    const built = await readFile(new URL("go.wasm", dist));
    const shipped = section(wasm, CODE).length, original = section(built, CODE).length;
    assert.ok(shipped <= original * 0.95, `dist/tabletop.wasm's code (${shipped} bytes) is not 5% smaller than Go's (${original})`);
  });
  await t.test("Packed", () => {
    // packdata ran: a few data segments instead of one per run of non-zero bytes.
    const segments = leb(section(wasm, DATA), 0).value;
    assert.ok(segments <= 16, `dist/tabletop.wasm has ${segments} data segments`);
  });
  await t.test("Lifted", async () => {
    // packdata -column took Go's findfunctab out of the data (a start function writes it
    // back): the module is smaller, and an instance starts with the same memory as one of
    // the wasm Go wrote, byte for byte.
    const built = await readFile(new URL("go.wasm", dist));
    assert.ok(wasm.length < built.length, `dist/tabletop.wasm is ${wasm.length} bytes raw, Go wrote ${built.length}`); // 0.47 MB more without -column
    const [mine, go] = [await memory(wasm), await memory(built)];
    assert.equal(mine.length, go.length);
    assert.ok(Buffer.compare(mine, go) === 0, "an instance of dist/tabletop.wasm starts with another memory than one of Go's output");
  });
});

/** memory is the memory an instance of the Go program in module starts with (before Go runs). */
async function memory(module) {
  if (!globalThis.Go) await import(new URL("wasm_exec.js", dist));
  const { instance } = await WebAssembly.instantiate(module, new globalThis.Go().importObject);
  return Buffer.from(instance.exports.mem.buffer);
}

const CODE = 10, DATA = 11;

/** section returns the body of the module's section with the given id. */
function section(module, id) {
  for (let at = 8; at < module.length; ) {
    const kind = module[at];
    const size = leb(module, at + 1);
    const start = size.next, end = start + size.value;
    if (kind === id) return module.subarray(start, end);
    at = end;
  }
  throw new Error(`no section ${id}`);
}

/** leb reads an unsigned LEB128 number at offset: its value and the offset after it. */
function leb(bytes, offset) {
  let value = 0, shift = 0, at = offset;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return { value, next: at };
    shift += 7;
  }
}
