// The records of a persistent store's IndexedDB database, as idb.js (the storage) and
// idb-upgrade.js (older databases converted) write and read them: the object stores, the
// head, log records and the keys of pages, the directory of pages and the carried keys.
// The layout as a whole is described at the top of idb.js.

import { dataCorrupted } from "./errors.js";
import { commandsEnd, compareBytes, eachCommand, eachKey } from "./load.js";

/** KV, META and PAGES are the database's object stores; TOUCHES the log's index (see idb.js); DIRECTORY a key of META. */
export const KV = "kv";
export const META = "meta";
export const PAGES = "pages";
export const TOUCHES = "touches"; // the log's index: see the top of idb.js
export const DIRECTORY = "directory"; // meta: every page's IndexedDB key, in order

const encoder = new TextEncoder();

/**
 * CARRIED are the keys (nearly) every commit writes, which the log's index lists by
 * themselves instead of by their page: the store's clock (core/tx.go), moved by every
 * write that issues a Timestamp.
 */
const CARRIED = ["m\u0000clock"];
const carriedKeys = CARRIED.map((k) => encoder.encode(k));

/** carried returns the carried key k is (its string), or undefined. */
function carried(k) {
  for (let i = 0; i < carriedKeys.length; i++) if (compareBytes(carriedKeys[i], k) === 0) return CARRIED[i];
  return undefined;
}

/** PAGE_BYTES is about how large a page is; a compaction splits one past twice that. */
export const PAGE_BYTES = 64 << 10;

/** KEY_END is the end of the engine's key space (no key holds the byte 0xFF). */
export const KEY_END = new Uint8Array([0xff]);

/** hex writes n in hex, zero-padded to width digits. */
export const hex = (n, width) => n.toString(16).padStart(width, "0");
/** logKey is the key of the log record at seq: its fixed width makes text order sequence order. */
export const logKey = (seq) => `log/${hex(seq, 16)}`;

/** parseHead reads the head record (see idb.js); a missing one is an empty store's. */
export function parseHead(raw) {
  if (raw === undefined) return { gen: 0, chunks: 0, nextSeq: 0, firstSeq: 0 };
  const text = ArrayBuffer.isView(raw) || raw instanceof ArrayBuffer ? new TextDecoder().decode(raw) : String(raw);
  const f = text.split(" ").map(Number);
  if (f.length !== 4 || f.some((n) => !Number.isSafeInteger(n) || n < 0) || f[3] > f[2]) throw dataCorrupted("head", `${JSON.stringify(text)} is not a head record`);
  return { gen: f[0], chunks: f[1], nextSeq: f[2], firstSeq: f[3] };
}

/** encodeHead writes the head record. */
export const encodeHead = (h) => encoder.encode(`${h.gen} ${h.chunks} ${h.nextSeq} ${h.firstSeq}`);

/** logRange is the key range of the log records from … to-1; allLog every log record's. */
export const logRange = (from, to) => IDBKeyRange.bound(logKey(from), logKey(to - 1));
export const allLog = () => IDBKeyRange.bound("log/", "log/\uffff");

/**
 * logEntry reads the log record v stored at key: { cs, changes?, touches?, total? }
 * (version 2's: { cs, changes? } or its bytes); changes, kept as JSON text (see
 * logRecord), as the array it notes. A value that is no record throws DataCorrupted.
 */
export function logEntry(v, key) {
  if (v instanceof Uint8Array) return { cs: v };
  if (v === null || typeof v !== "object") throw dataCorrupted(key, "not a log record");
  if (typeof v.changes !== "string") return v;
  try {
    return { ...v, changes: JSON.parse(v.changes) };
  } catch {
    throw dataCorrupted(key, "its note of changes is not JSON");
  }
}

/** logEntries reads the log records values stored from sequence number from on (logEntry). */
export const logEntries = (values, from) => values.map((v, i) => logEntry(v, logKey(from + i)));

/**
 * logRecord is the log record of a change set ({ cs, changes?, carry? }) whose writer
 * knows the pages as dir and counts total bytes of log since the pages up to it; carry
 * is the latest command of each carried key as of this change set (see Carry).
 */
export function logRecord(set, dir, total) {
  const rec = { cs: set.cs, touches: touches(set.cs, dir), total };
  // The note as JSON text: IndexedDB's add clones one string faster than an array of
  // objects (in Chromium, that takes a good part off an insert's add call).
  if (set.changes) rec.changes = JSON.stringify(set.changes);
  if (set.carry) rec.carry = set.carry;
  return rec;
}

/**
 * Carry keeps the latest command of each carried key a replica has applied, which every
 * log record it writes carries (carry), so that opening finds them in the log's last
 * record.
 */
export class Carry {
  constructor() {
    this.cmds = new Map(); // carried key → its latest command
  }

  /** add takes the carried keys' commands of a change set (or of a carry) applied after those before. */
  add(cs) {
    eachCommand(cs, (cmd, k) => {
      const c = carried(k);
      if (c !== undefined) this.cmds.set(c, cmd.slice());
    });
  }

  /** bytes returns the commands kept, as one change set. */
  bytes() {
    return concat([...this.cmds.values(), new Uint8Array(0)]);
  }
}

/**
 * touches lists what the log's index finds a change set by: the keys of the pages its
 * keys fall in, as dir knows them, but for the carried keys'.
 */
function touches(cs, dir) {
  const pages = new Set();
  eachKey(cs, (k) => carried(k) === undefined && pages.add(dir.search(k)));
  return [...pages].map((i) => pageKey(dir.keys[i]));
}

/** pageName names, in an error, the page whose range starts at engine key k. */
export const pageName = (k) => `pages/${JSON.stringify(new TextDecoder().decode(k))}`;

/** pageKey is the IndexedDB key of the page whose range starts at engine key k. */
export function pageKey(k) {
  const out = new Uint8Array(k.length + 1);
  out[0] = 0x70;
  out.set(k, 1);
  return out;
}

/** Directory is what a tab knows of the pages' keys: sorted engine keys, only ever growing. */
export class Directory {
  constructor() {
    this.keys = [new Uint8Array(0)]; // the first page's range starts at the empty key
    this.gen = -1; // the pages' generation at which it last read every page's key
  }

  /** add records the pages' IndexedDB keys read. */
  add(idbKeys) {
    for (const raw of idbKeys) {
      const k = new Uint8Array(raw).slice(1);
      const i = this.search(k);
      if (compareBytes(this.keys[i], k) !== 0) this.keys.splice(i + 1, 0, k);
    }
  }

  /** search returns the index of the greatest key at or below k. */
  search(k) {
    let lo = 0, hi = this.keys.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (compareBytes(this.keys[mid], k) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** writeDirectory writes the list of every page's IndexedDB key, in the transaction of meta. */
export function writeDirectory(meta, keys) {
  meta.put(keys.map((k) => pageKey(k)), DIRECTORY);
}

/** concat joins byte chunks into one array (the chunk itself if there is one). */
export function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let pos = 0;
  for (const c of chunks) out.set(c, pos), (pos += c.length);
  return out;
}

/**
 * damageIn finds, in what readPagesIn (idb.js) read, the first page or log record whose
 * value is not whole commands, and returns the DataCorrupted error naming it, or
 * undefined: called when the engine would not load them.
 */
export function damageIn(loaded) {
  const lo = loaded.lo, hi = loaded.hi;
  const named = [
    ...loaded.pages.map((b, i) => [loaded.names.pages?.[i] ?? `the pages from ${pageName(lo)} to ${hi === KEY_END ? "the end" : pageName(hi)}`, b]),
    ...loaded.sets.map((b, i) => [loaded.names.sets[i], b]),
  ];
  for (const [key, b] of named) {
    if (!(b instanceof Uint8Array)) return dataCorrupted(key, `the value is ${Object.prototype.toString.call(b)}, not bytes`);
    try {
      commandsEnd(b, 0, b.length);
    } catch (e) {
      if (e.code !== "DataCorrupted") throw e;
      return dataCorrupted(key, e.problem);
    }
  }
  return undefined;
}
