// The Durable Object storage as worker/edge/dostore sees it: an atomic key-value store of byte
// values of any size, over the SQLite-backed storage API (ctx.storage.kv and
// ctx.storage.transactionSync), which limits one value to 2 MiB.
//
// A value longer than PART_SIZE is stored as its first PART_SIZE bytes at its key and the
// rest at key + PART + an 8-digit hex index, so a listing in key order finds a value's
// parts right after it. Keys may therefore not contain PART, nor the tab and newline of the
// packed listings that cross into Go.
//
// Listings and commits cross the JS/Go boundary packed: a text of "key\tlength\n" lines and
// one Uint8Array of the values one after another.

/** PART separates a key from the index of one of its parts. */
export const PART = "\u0001";

/** PART_SIZE is the largest value written under one key: half the storage's limit. */
export const PART_SIZE = 1 << 20;

/** kvStorage returns the KV that worker/edge/dostore uses over a Durable Object's storage. */
export function kvStorage(storage) {
  const kv = storage.kv;
  return {
    get: (key) => read(kv, checkKey(key)),
    list: (prefix) => list(kv, prefix),
    commit: (putText, data, deleteText) =>
      storage.transactionSync(() => {
        for (const key of lines(deleteText)) remove(kv, checkKey(key));
        let off = 0;
        for (const line of lines(putText)) {
          const [key, n] = entry(line);
          remove(kv, key);
          write(kv, key, data.subarray(off, off + n));
          off += n;
        }
      }),
  };
}

// read and list check a value's parts as they join them: parts 1, 2, … in turn right after
// their key, each but the last PART_SIZE bytes long, as write stores them. Anything else
// is damage, thrown as damaged (a part missing at the end shows only as a value that does
// not decode).
function read(kv, key) {
  const first = kv.get(key);
  if (first === undefined) return undefined;
  const value = joined(key, first);
  for (const [k, v] of kv.list({ prefix: key + PART })) value.add(k, v);
  return value.bytes();
}

function list(kv, prefix) {
  const keys = [];
  const values = [];
  let value;
  for (const [k, v] of kv.list({ prefix })) {
    if (k.includes(PART)) {
      if (value === undefined) throw damaged(k, "a part of a value whose first part is missing");
      value.add(k, v);
      continue;
    }
    if (value) values.push(value.bytes());
    keys.push(k), (value = joined(k, v));
  }
  if (value) values.push(value.bytes());
  const text = keys.map((k, i) => `${k}\t${values[i].length}\n`).join("");
  return [text, concat(values)];
}

/** joined collects the parts of the value at key, whose first part is first. */
function joined(key, first) {
  const parts = [bytes(key, first)];
  return {
    add(k, v) {
      if (k !== partKey(key, parts.length)) throw damaged(k, `not part ${parts.length} of ${JSON.stringify(key)}, the next one`);
      if (parts.at(-1).length !== PART_SIZE) throw damaged(k, `follows a part of ${parts.at(-1).length} bytes, not ${PART_SIZE}`);
      parts.push(bytes(k, v));
    },
    bytes: () => concat(parts),
  };
}

/**
 * damaged is the error of a stored value that is damaged, with code "DataCorrupted" and
 * the key: worker/edge/dostore reports it as kvlog's damage.
 */
function damaged(key, problem) {
  return Object.assign(new Error(`dostore: stored key ${JSON.stringify(key)} is damaged: ${problem}`), { code: "DataCorrupted", key, problem });
}

// write stores value (a view into the commit's data) at key, in parts if it is long. Each
// part is copied: a stored view would carry its whole buffer along.
function write(kv, key, value) {
  kv.put(key, value.slice(0, PART_SIZE));
  for (let i = 1, off = PART_SIZE; off < value.length; i++, off += PART_SIZE) {
    kv.put(partKey(key, i), value.slice(off, off + PART_SIZE));
  }
}

function remove(kv, key) {
  const parts = Array.from(kv.list({ prefix: key + PART }), ([k]) => k);
  for (const k of parts) kv.delete(k);
  kv.delete(key);
}

function partKey(key, i) {
  return key + PART + i.toString(16).padStart(8, "0");
}

function entry(line) {
  const tab = line.lastIndexOf("\t");
  const n = Number(line.slice(tab + 1));
  if (tab < 0 || !Number.isSafeInteger(n) || n < 0) throw new Error(`dostore: bad commit line ${JSON.stringify(line)}`);
  return [checkKey(line.slice(0, tab)), n];
}

function checkKey(key) {
  if (typeof key !== "string" || key === "" || /[\u0001\t\n]/.test(key)) {
    throw new Error(`dostore: bad key ${JSON.stringify(key)}`);
  }
  return key;
}

function* lines(text) {
  for (const line of text.split("\n")) if (line !== "") yield line;
}

function bytes(key, v) {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  throw damaged(key, `the value is ${Object.prototype.toString.call(v)}, not bytes`);
}

function concat(parts) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) out.set(p, off), (off += p.length);
  return out;
}
