import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { kvStorage, PART, PART_SIZE } from "../src/storage.mjs";

const { fakeStorage, MAX_VALUE } = createRequire(import.meta.url)("./fakestorage.cjs");
const enc = new TextEncoder();

function pack(entries) {
  const text = entries.map(([k, v]) => `${k}\t${v.length}\n`).join("");
  const data = new Uint8Array(entries.reduce((n, [, v]) => n + v.length, 0));
  let off = 0;
  for (const [, v] of entries) data.set(v, off), (off += v.length);
  return [text, data];
}

function unpack([text, data]) {
  const out = {};
  let off = 0;
  for (const line of text.split("\n").filter(Boolean)) {
    const [k, n] = line.split("\t");
    out[k] = data.slice(off, off + Number(n));
    off += Number(n);
  }
  return out;
}

test("a value over the storage's limit is stored in parts and read back whole", () => {
  const storage = fakeStorage();
  const kv = kvStorage(storage);
  const big = new Uint8Array(MAX_VALUE * 2 + 123).map((_, i) => i % 251);
  kv.commit(...pack([["log/1", big], ["log/2", enc.encode("small")], ["head", enc.encode("h")]]), "");
  assert.equal(storage.keys().filter((k) => k.includes(PART)).length, Math.ceil(big.length / PART_SIZE) - 1);
  assert.deepEqual(kv.get("log/1"), big);
  const listed = unpack(kv.list("log/"));
  assert.deepEqual(Object.keys(listed), ["log/1", "log/2"]);
  assert.deepEqual(listed["log/1"], big);
  kv.commit("", new Uint8Array(0), "log/1\n");
  assert.deepEqual(storage.keys(), ["head", "log/2"]);
});

test("a commit that fails applies nothing", () => {
  const storage = fakeStorage();
  const kv = kvStorage(storage);
  kv.commit(...pack([["a", enc.encode("1")]]), "");
  storage.failAfter(3);
  assert.throws(() => kv.commit(...pack([["b", new Uint8Array(PART_SIZE * 3)]]), "a\n"), /injected/);
  assert.deepEqual(storage.keys(), ["a"]);
  assert.equal(kv.get("b"), undefined);
});

test("keys the packed form cannot carry are refused", () => {
  const kv = kvStorage(fakeStorage());
  for (const key of ["", "a\tb", `a${PART}b`]) assert.throws(() => kv.get(key), /bad key/);
  assert.throws(() => kv.commit("no-tab\n", new Uint8Array(0), ""), /bad commit line/);
});

test("a stored value that is not bytes is damage, named", () => {
  const storage = fakeStorage();
  const kv = kvStorage(storage);
  kv.commit(...pack([["log/1", enc.encode("one")]]), "");
  const real = storage.kv;
  storage.kv = { ...real, get: () => "one", *list() { yield ["log/1", "one"]; } }; // as a value written by other code would read
  const refused = { code: "DataCorrupted", key: "log/1", message: /"log\/1" is damaged: the value is \[object String\], not bytes/ };
  assert.throws(() => kvStorage(storage).get("log/1"), refused);
  assert.throws(() => kvStorage(storage).list("log/"), refused);
});
