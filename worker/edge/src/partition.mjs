// The partition map of a table split across Durable Objects, and what the entry Worker
// reads from a request to route it by PartitionKey. Pure functions: no runtime here.
//
// A map is { version, epoch?, ranges: [{ lo, obj }] }: ranges ordered by lo, the first with lo ""
// (every key), each serving [lo, next lo) — the last has no upper bound — from the table
// object named obj; epoch is the version at which the table last started over (see
// vector.mjs). A table that was never split has the default map: one range, served
// by the object named after the table (objectName). Versions only grow, across deletion
// and re-creation of the table too, so a newer map is always recognized.
import { objectName } from "./route.mjs";

/**
 * defaultMap is the map of a table that was never split, at version; epoch is the version
 * at which the table last started over (deleted), absent until it has.
 */
export function defaultMap(account, table, version = 0, epoch = 0) {
  const map = { version, ranges: [{ lo: "", obj: objectName(account, table) }] };
  if (epoch) map.epoch = epoch;
  return map;
}

/**
 * compareKeys orders two keys as the store does, by their UTF-8 bytes, which is the order
 * of their code points: negative when a comes first, 0 when they are equal, positive
 * after. Every comparison of keys in the glue goes through it. JavaScript's < compares
 * UTF-16 code units, which puts a character beyond U+FFFF (a surrogate pair, from 0xD800)
 * before one of U+E000–U+FFFF, where the store puts it after.
 */
export function compareKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

// unitRank maps a UTF-16 code unit to a rank that orders the first units where two
// well-formed strings differ by code point: surrogates, which start the characters beyond
// U+FFFF, rank above U+E000–U+FFFF, which move down into the surrogates' place.
function unitRank(u) {
  if (u >= 0xe000) return u - 0x800;
  return u >= 0xd800 ? u + 0x2000 : u;
}

/** rangeIndex is the index of the range of map whose span holds PartitionKey pk. */
export function rangeIndex(map, pk) {
  let i = 0;
  while (i + 1 < map.ranges.length && compareKeys(map.ranges[i + 1].lo, pk) <= 0) i++;
  return i;
}

/** spanOf is range i of map as { lo, hi, obj }: hi is null for the last range. */
export function spanOf(map, i) {
  return { lo: map.ranges[i].lo, hi: map.ranges[i + 1]?.lo ?? null, obj: map.ranges[i].obj };
}

/** splitMap returns map with the range that holds key split at key, the upper part served by obj. */
export function splitMap(map, key, obj) {
  const i = rangeIndex(map, key);
  if (map.ranges[i].lo === key) throw new Error(`split at ${JSON.stringify(key)}: a range starts there`);
  const ranges = [...map.ranges.slice(0, i + 1), { lo: key, obj }, ...map.ranges.slice(i + 1)];
  return { ...map, version: map.version + 1, ranges };
}

/** sameSpan tells whether two spans ({lo, hi, obj}) are the same range of the same object. */
export function sameSpan(a, b) {
  return a.lo === b.lo && (a.hi ?? null) === (b.hi ?? null) && a.obj === b.obj;
}

/** inSpan tells whether PartitionKey pk lies in span. */
export function inSpan(span, pk) {
  return compareKeys(pk, span.lo) >= 0 && (span.hi === null || compareKeys(pk, span.hi) < 0);
}

/**
 * pathKey is the PartitionKey an entity path names, as in /t(PartitionKey='a',RowKey='b')
 * (the path decoded), or undefined.
 */
export function pathKey(path) {
  const m = /\(\s*PartitionKey\s*=\s*'((?:[^']|'')*)'/.exec(path);
  return m ? m[1].replaceAll("''", "'") : undefined;
}

/** bodyKey is the PartitionKey of an entity body (JSON text), or undefined. */
export function bodyKey(text) {
  try {
    const pk = JSON.parse(text)?.PartitionKey;
    return typeof pk === "string" ? pk : undefined;
  } catch {
    return undefined;
  }
}

/**
 * batchKey is the PartitionKey of a $batch body: that of its first request that names
 * one, in its URL or in its JSON body. Every request of a batch must name the same
 * partition (the handler refuses a batch that does not), so the first decides.
 */
export function batchKey(text) {
  for (const line of text.split(/\r?\n/)) {
    const req = /^(?:GET|POST|PUT|PATCH|MERGE|DELETE) (\S+) HTTP\/1\.[01]$/.exec(line);
    if (req) {
      let path = req[1];
      try {
        path = decodeURIComponent(new URL(path, "http://x").pathname);
      } catch {
        // keep it raw
      }
      const k = pathKey(path);
      if (k !== undefined) return k;
    } else if (line.startsWith("{")) {
      const k = bodyKey(line);
      if (k !== undefined) return k;
    }
  }
  return undefined;
}

/**
 * filterKey is the PartitionKey a $filter pins, or undefined: a filter whose every
 * match has PartitionKey eq 'x', because it is a conjunction (no or, no not) with that
 * comparison among its terms.
 */
export function filterKey(filter) {
  if (!filter) return undefined;
  const bare = filter.replace(/'(?:[^']|'')*'/g, "''");
  if (/\b(or|not)\b/i.test(bare)) return undefined;
  const m = /(?:^|[\s(])PartitionKey\s+eq\s+'((?:[^']|'')*)'/.exec(filter);
  if (!m) return undefined;
  // the match must be a term of the filter, not text inside a string literal
  const before = filter.slice(0, m.index + m[0].indexOf("PartitionKey"));
  if ((before.match(/'/g)?.length ?? 0) % 2 !== 0) return undefined;
  return m[1].replaceAll("''", "'");
}

/**
 * filterBounds is the span of PartitionKeys that every match of a $filter lies in:
 * { lo, hi, hiIn } (lo "" and hi null when unbounded; hiIn when hi itself may match),
 * from the comparisons of PartitionKey with a string (eq, ge, gt, le, lt) that are terms
 * of the filter, when it is a conjunction (no or, no not). Any other filter spans every key.
 */
export function filterBounds(filter) {
  const out = { lo: "", hi: null, hiIn: false };
  if (!filter) return out;
  const bare = filter.replace(/'(?:[^']|'')*'/g, "''");
  if (/\b(or|not)\b/i.test(bare)) return out;
  for (const m of filter.matchAll(/(?:^|[\s(])PartitionKey\s+(eq|ge|gt|le|lt)\s+'((?:[^']|'')*)'/g)) {
    const before = filter.slice(0, m.index + m[0].indexOf("PartitionKey"));
    if ((before.match(/'/g)?.length ?? 0) % 2 !== 0) continue; // inside a string literal
    const [op, key] = [m[1], m[2].replaceAll("''", "'")];
    if (op !== "le" && op !== "lt" && compareKeys(key, out.lo) > 0) out.lo = key;
    if (op === "ge" || op === "gt" || (out.hi !== null && compareKeys(key, out.hi) > 0)) continue;
    if (out.hi === null || compareKeys(key, out.hi) < 0) Object.assign(out, { hi: key, hiIn: op !== "lt" });
    else if (op === "lt") out.hiIn = false; // key === hi
  }
  return out;
}

/** beyond tells whether PartitionKey pk lies past the upper end of bounds (see filterBounds). */
export function beyond(bounds, pk) {
  return bounds.hi !== null && (compareKeys(pk, bounds.hi) > 0 || (pk === bounds.hi && !bounds.hiIn));
}

// Continuation tokens are base64url of a version byte (1), a kind byte and a key; the
// Go handler makes kind 'P' (resume after this PartitionKey) and 'R' (its RowKey). The
// entry Worker makes kind 'S' for a page that ends at a range boundary: start at the
// range whose lower bound is the key.

const TOKEN_VERSION = 1;

/** encodeToken returns the token of kind ('P', 'R' or 'S') for key. */
export function encodeToken(kind, key) {
  const bytes = [TOKEN_VERSION, kind.charCodeAt(0), ...new TextEncoder().encode(key)];
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** decodeToken returns { kind, key } of a token, or undefined if it is not one. */
export function decodeToken(tok) {
  if (!/^[A-Za-z0-9_-]+$/.test(tok ?? "")) return undefined;
  try {
    const bin = atob(tok.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    if (bytes.length < 2 || bytes[0] !== TOKEN_VERSION) return undefined;
    return { kind: String.fromCharCode(bytes[1]), key: new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(2)) };
  } catch {
    return undefined;
  }
}

/**
 * feedParts splits a Query Entities answer body, {…,"value":[…]}, into its head (up to
 * and with "value":[), its entities' text and its tail, or undefined if it has no feed.
 */
export function feedParts(text) {
  const open = text.indexOf('"value":[');
  const close = text.lastIndexOf("]");
  if (open < 0 || close < open) return undefined;
  const start = open + '"value":['.length;
  return { head: text.slice(0, start), items: text.slice(start, close), tail: text.slice(close) };
}

/** joinFeeds joins the feeds of several answers into the body of one, in order. */
export function joinFeeds(parts) {
  const items = parts.map((p) => p.items).filter((s) => s !== "");
  return parts[0].head + items.join(",") + parts[0].tail;
}
