// A stand-in for a SQLite-backed Durable Object's ctx.storage, for unit tests outside
// workerd: the synchronous kv API (get, put, delete, list with prefix, in key order) and
// transactionSync, which rolls back when its callback throws. It enforces the storage's
// limits on keys (2 KiB) and values (2 MiB), and failAfter(n) makes the n+1-th write from
// now throw, to test that a failed commit applies nothing.
"use strict";

const MAX_KEY = 2048;
const MAX_VALUE = 2 * 1024 * 1024;

function fakeStorage() {
  let data = new Map();
  let writesLeft = Infinity;
  const write = (key) => {
    if (writesLeft-- <= 0) throw new Error("injected storage failure");
    if (typeof key !== "string" || Buffer.byteLength(key) > MAX_KEY) throw new Error("key too large");
  };
  const kv = {
    get: (key) => (data.has(key) ? data.get(key).slice() : undefined),
    put(key, value) {
      write(key);
      if (!(value instanceof Uint8Array)) throw new Error("fake storage keeps only Uint8Array");
      if (value.length > MAX_VALUE) throw new Error("value too large");
      data.set(key, value.slice());
    },
    delete(key) {
      write(key);
      return data.delete(key);
    },
    *list({ prefix = "" } = {}) {
      const keys = [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
      for (const k of keys) yield [k, data.get(k).slice()];
    },
  };
  return {
    kv,
    transactionSync(fn) {
      const saved = new Map(data);
      try {
        return fn();
      } catch (e) {
        data = saved;
        throw e;
      }
    },
    failAfter(n) {
      writesLeft = n;
    },
    size: () => data.size,
    keys: () => [...data.keys()].sort(),
  };
}

module.exports = { fakeStorage, MAX_VALUE };
