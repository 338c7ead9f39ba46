// The change feed checkpoint of a table split across objects: a vector of one checkpoint
// per PartitionKey range, each the Go handler's own checkpoint from the object that served
// the range (see worker/rest/README.md, "Pull from Tabletop: the change feed"). Pure functions.
//
// A vector is { epoch, start, entries: [[lo, since]] }: entries ordered by lo, the first
// lo "", each covering [lo, next lo); start is the lo of the range the next page begins
// with; epoch is the map's (it changes when the table is deleted, so a vector from before
// is void). Ranges only ever split, so every range of a later map lies inside one entry,
// whose checkpoint carries over to it: the object that serves part of a range after a
// split adopted the feed of the object it came from (worker/edge/object, adoptFeed).
//
// Text form: base64url (unpadded) of "V", a version byte (1), then the JSON
// [epoch, start, [[lo, since], …]] compressed with raw DEFLATE: the ranges' checkpoints
// share the store identity and most of their Timestamps, so a vector takes few bytes per
// range, and one of hundreds of ranges stays within a URL's 16 KB on Cloudflare. The
// Go handler's checkpoints start with another byte (its version, 1 to 3), so a checkpoint
// issued before the table was split reads as the vector of one entry that covers every key.
import { compareKeys } from "./partition.mjs";

const MARK = "V".charCodeAt(0);
const VERSION = 1;

/** MAX_JSON bounds the JSON a vector may inflate to (a vector of some 10,000 ranges). */
const MAX_JSON = 1 << 20;

/** START is the vector of a reader at the start of the feed. */
export const START = Object.freeze({ epoch: null, start: "", entries: Object.freeze([Object.freeze(["", ""])]) });

/** encodeVector resolves to the text form of vector. */
export async function encodeVector({ epoch, start, entries }) {
  const json = new TextEncoder().encode(JSON.stringify([epoch, start, entries]));
  const packed = await pipe(json, new CompressionStream("deflate-raw"), Infinity);
  const bytes = new Uint8Array(packed.length + 2);
  bytes.set([MARK, VERSION]);
  bytes.set(packed, 2);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * decodeVector reads a since parameter: "" (or null) is START, a Go checkpoint is the
 * vector of one entry (its epoch null: any), and it resolves to undefined for anything
 * that is neither.
 */
export async function decodeVector(text) {
  if (!text) return START;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let bytes;
  try {
    bytes = Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  if (bytes[0] !== MARK) return { epoch: null, start: "", entries: [["", text]] }; // the handler checks it
  if (bytes[1] !== VERSION) return undefined;
  try {
    const json = await pipe(bytes.subarray(2), new DecompressionStream("deflate-raw"), MAX_JSON);
    const [epoch, start, entries] = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
    return wellFormed(epoch, start, entries) ? { epoch, start, entries } : undefined;
  } catch {
    return undefined;
  }
}

// pipe runs bytes through a compression stream and resolves to its output, failing once
// that passes limit bytes.
async function pipe(bytes, stream, limit) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const chunks = [];
  let n = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      await reader.cancel();
      throw new Error(`a vector checkpoint over ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) out.set(c, off), (off += c.length);
  return out;
}

// wellFormed checks a decoded vector: entries ordered by lo from "", checkpoints as text,
// start one of the entries' lo.
function wellFormed(epoch, start, entries) {
  if (!Number.isSafeInteger(epoch) || epoch < 0 || typeof start !== "string" || !Array.isArray(entries)) return false;
  if (entries.length === 0 || entries[0]?.[0] !== "") return false;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== "string" || typeof e[1] !== "string") return false;
    if (i > 0 && !(compareKeys(entries[i - 1][0], e[0]) < 0)) return false;
  }
  return entries.some(([lo]) => lo === start);
}

/** sinceAt is the checkpoint of the entry of vector that covers the range starting at lo. */
export function sinceAt(vector, lo) {
  let since = vector.entries[0][1];
  for (const [from, s] of vector.entries) if (compareKeys(from, lo) <= 0) since = s;
  return since;
}

/**
 * fits tells whether vector can be read by map: every entry starts where a range does
 * (a vector from a newer map than a cached one does not), and the epochs agree.
 */
export function fits(vector, map) {
  const starts = new Set(map.ranges.map((r) => r.lo));
  return vector.entries.every(([lo]) => starts.has(lo)) && starts.has(vector.start);
}

/** epochOf is the epoch of a partition map: the version at which its table last started over. */
export function epochOf(map) {
  return map.epoch ?? 0;
}
