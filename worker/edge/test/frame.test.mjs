// The request crossing into Go (src/frame.mjs and exports_js.go), on the built worker wasm
// in Node: bodies larger than Go's request buffer, answers larger than a page of memory,
// text that is not ASCII, and memory that grows between calls. Needs make worker.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startGo, stopGo, serveSigned } from "./nodego.mjs";

const { go, binding, exit, exports } = await startGo("Frame");
after(() => stopGo({ go, binding, exit }));

const serve = (method, path, options) => serveSigned(exports, method, path, options);

test("an entity of 15 properties of 30,000 characters crosses in and out whole, larger than Go's 64 KiB request buffer", async () => {
  const entity = { PartitionKey: "p", RowKey: "big" };
  for (let i = 0; i < 15; i++) entity[`s${i}`] = String.fromCharCode(0x41 + i).repeat(29_990) + "é€😀";
  const [put] = await serve("PUT", "/Frame(PartitionKey='p',RowKey='big')", { body: JSON.stringify(entity) });
  assert.equal(put, 204);
  const [status, , text] = await serve("GET", "/Frame(PartitionKey='p',RowKey='big')");
  assert.equal(status, 200);
  const got = JSON.parse(text);
  for (let i = 0; i < 15; i++) assert.equal(got[`s${i}`], entity[`s${i}`], `property s${i}`);
});

test("header values that are not ASCII cross as UTF-8 both ways", async () => {
  const [status, headers] = await serve("GET", "/Frame()", { headers: { "x-ms-client-request-id": "réquête-ÿ" } });
  assert.equal(status, 200);
  assert.equal(headers.get("x-ms-client-request-id"), "réquête-ÿ");
});

test("answers stay whole while Go's memory grows from one call to the next", async () => {
  const before = exports.mem.buffer.byteLength;
  const rows = [];
  for (let i = 0; exports.mem.buffer.byteLength === before && i < 400; i++) {
    const row = { PartitionKey: "grow", RowKey: String(i).padStart(4, "0"), s: "x".repeat(30_000) };
    assert.equal((await serve("PUT", `/Frame(PartitionKey='grow',RowKey='${row.RowKey}')`, { body: JSON.stringify(row) }))[0], 204);
    rows.push(row.RowKey);
  }
  assert.ok(exports.mem.buffer.byteLength > before, "memory did not grow");
  const [status, , text] = await serve("GET", "/Frame()", { headers: { accept: "application/json;odata=nometadata" }, body: undefined });
  assert.equal(status, 200);
  const keys = JSON.parse(text).value.filter((e) => e.PartitionKey === "grow").map((e) => e.RowKey);
  assert.deepEqual(keys, rows.slice(0, keys.length));
  assert.ok(keys.length > 0);
});

test("a frame whose head length does not fit is answered 400, and the instance serves on", async () => {
  const at = exports.tabletop_buffer(16);
  new Uint8Array(exports.mem.buffer).set(new TextEncoder().encode("GET http://h/\n"), at);
  const n = exports.tabletop_serve(100, 14);
  assert.ok(n > 4);
  const out = exports.tabletop_answer();
  const head = new TextDecoder().decode(new Uint8Array(exports.mem.buffer, out + 4, new DataView(exports.mem.buffer).getUint32(out, true)));
  assert.match(head, /^400\n/);
  assert.equal((await serve("GET", "/Frame()"))[0], 200);
});
