// Conversion between entities as @azure/data-tables represents them and the Azure wire
// JSON the engine reads and writes.
//
// Written values: strings, booleans, numbers (an integer in Int32 range is an Int32, any
// other number a Double, NaN and ±Infinity included), bigint (Int64), Date (DateTime),
// Uint8Array (Binary), and { value, type } objects for any EDM type ("Int64", "Guid",
// "Double", "DateTime", "Binary", "Int32", "String", "Boolean"). null and undefined
// properties are not stored.
//
// Read values, as the SDK returns them: strings, booleans and numbers as such (NaN and
// ±Infinity as numbers too, where the SDK leaves the strings "NaN", "Infinity"), Int64 as
// bigint, DateTime as Date, Binary as Uint8Array, Guid as { value, type: "Guid" }. With
// disableTypeConversion every property is { value, type }. A Date read from the store
// remembers its full 100 ns text: written back unchanged it keeps all seven fractional
// digits.

import { invalidInput } from "./errors.js";

const exact = Symbol("tabletop.exactDateTime");
const edmTypes = ["Binary", "Boolean", "DateTime", "Double", "Guid", "Int32", "Int64", "String"];
const toWireName = { partitionKey: "PartitionKey", rowKey: "RowKey", timestamp: "Timestamp" };
const fromWireName = { PartitionKey: "partitionKey", RowKey: "rowKey", Timestamp: "timestamp", "odata.etag": "etag" };

/** entityJSON returns an entity as a JSON string in wire form, with type annotations. */
export function entityJSON(entity) {
  if (!entity || typeof entity !== "object") throw invalidInput("entity must be an object");
  const out = {};
  for (const [key, v] of Object.entries(entity)) {
    if (key === "etag" || key === "timestamp" || v === null || v === undefined) continue;
    const name = toWireName[key] ?? key;
    const [value, type] = wireValue(name, v);
    if (type) out[`${name}@odata.type`] = `Edm.${type}`;
    out[name] = value;
  }
  return JSON.stringify(out);
}

/** keysJSON returns the JSON of an entity that has only its keys, for deletes. */
export function keysJSON(partitionKey, rowKey) {
  return JSON.stringify({ PartitionKey: partitionKey, RowKey: rowKey });
}

/** wireValue returns a property's JSON value and its EDM type, or no type where JSON tells. */
function wireValue(name, v) {
  switch (typeof v) {
    case "string":
    case "boolean":
      return [v];
    case "number":
      return Number.isFinite(v) ? [v] : [String(v), "Double"];
    case "bigint":
      return [v.toString(), "Int64"];
  }
  if (v instanceof Date) return typedValue(name, { value: v, type: "DateTime" });
  if (v instanceof Uint8Array) return [toBase64(v), "Binary"];
  if (typeof v === "object" && "value" in v && edmTypes.includes(v.type)) return typedValue(name, v);
  throw invalidInput(`property ${name}: unsupported value ${String(v)}`);
}

const int32Text = /^[-+]?\d{1,10}$/;
const int64Text = /^[-+]?\d{1,19}$/;
const doubleText = /^([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|NaN|-?Infinity)$/;
const int64Min = -(2n ** 63n), int64Max = 2n ** 63n - 1n;

/**
 * typedValue returns the JSON value of a { value, type } object. A value that is not of
 * its type ({ value: "fifteen", type: "Int32" }, a Boolean other than true or false) is a
 * RestError InvalidInput naming the property, never coerced; the engine checks the text
 * of DateTime, Guid and Binary the same way.
 */
function typedValue(name, { value, type }) {
  const bad = () => invalidInput(`property ${name}: ${describe(value)} is not a valid Edm.${type}`);
  switch (type) {
    case "Int32": {
      const n = typeof value === "number" ? value : typeof value === "string" && int32Text.test(value.trim()) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw bad();
      return [n, type];
    }
    case "Int64": {
      let n;
      if (typeof value === "bigint") n = value;
      else if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
      else if (typeof value === "string" && int64Text.test(value.trim())) n = BigInt(value.trim());
      if (n === undefined || n < int64Min || n > int64Max) throw bad();
      return [n.toString(), type];
    }
    case "Double":
      if (typeof value === "number") return [Number.isFinite(value) ? value : String(value), type];
      if (typeof value === "string" && doubleText.test(value.trim())) return [value.trim(), type];
      throw bad();
    case "Boolean":
      if (value === true || value === "true") return [true, type];
      if (value === false || value === "false") return [false, type];
      throw bad();
    case "DateTime":
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw bad();
        return [dateText(value), type];
      }
      if (typeof value !== "string") throw bad();
      return [value, type];
    case "Binary":
      if (value instanceof Uint8Array) return [toBase64(value), type];
      if (typeof value !== "string") throw bad();
      return [value, type];
    default: // String, Guid
      if (typeof value !== "string") throw bad();
      return [value, type];
  }
}

function describe(v) {
  try {
    return typeof v === "bigint" ? `${v}n` : JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** dateText is a Date's wire text: its remembered 100 ns text if unchanged, else ISO. */
function dateText(d) {
  const e = d[exact];
  return e && e.ms === d.getTime() ? e.text : d.toISOString();
}

/** fromWire converts one wire entity (minimal metadata) to the SDK's shape. */
export function fromWire(obj, disableTypeConversion = false) {
  const out = {};
  for (const [key, v] of Object.entries(obj)) {
    if (key === "odata.metadata" || key.endsWith("@odata.type")) continue;
    const name = fromWireName[key] ?? key;
    const type = obj[`${key}@odata.type`];
    out[name] = name !== key ? v : property(v, type?.slice(4), disableTypeConversion);
  }
  return out;
}

/** property converts a wire value to the SDK's shape: type is its EDM type, or undefined where JSON tells (String, Boolean, null). */
function property(v, type, raw) {
  if (type) return typed(v, type, raw);
  return raw ? inferred(v) : v;
}

// The engine's binary answers, read in place with a DataView: an entity (getEntity's) and
// a page of entities (queryEntities'); their layout is documented in wasm/entity.go.
// Values come out exactly as fromWire makes them from the same entity's JSON.
const answerTypes = ["String", "Binary", "Boolean", "DateTime", "Double", "Guid", "Int32", "Int64"];
const typeNull = 0xff;
const textDecoder = new TextDecoder();
let au8, adv, apos; // the answer being read
const anames = []; // the names it has numbered, emptied for each answer
let akeys; // the PartitionKey and RowKey the read asked for, or undefined (see knownText)
const nameRef = 2 ** 31, maxNames = 64; // as wasm/entity.go

/**
 * entityAnswer returns the decode function for Engine.call that reads an entity answer,
 * with or without type conversion. Given the keys the read asked for, the answer's keys
 * that are the same ASCII text are those strings, not new ones built from its bytes.
 */
export function entityAnswer(disableTypeConversion = false, partitionKey, rowKey) {
  if (partitionKey === undefined) return disableTypeConversion ? readEntityRaw : readEntity;
  const keys = [partitionKey, rowKey];
  return (u8, dv, pos, len) => readWhole(u8, dv, pos, len, entityAt, disableTypeConversion, keys);
}

/**
 * pageAnswer returns the decode function for Engine.call that reads a page answer into
 * { next: [pk, rk], plan, entities }, with or without type conversion.
 */
export function pageAnswer(disableTypeConversion = false) {
  return disableTypeConversion ? readPageRaw : readPage;
}

const readEntity = (u8, dv, pos, len) => readWhole(u8, dv, pos, len, entityAt, false);
const readEntityRaw = (u8, dv, pos, len) => readWhole(u8, dv, pos, len, entityAt, true);
const readPage = (u8, dv, pos, len) => readWhole(u8, dv, pos, len, pageAt, false);
const readPageRaw = (u8, dv, pos, len) => readWhole(u8, dv, pos, len, pageAt, true);

/**
 * readWhole reads an answer of len bytes at pos with read, which must use all of it. The
 * answer's state is left behind (a view of the engine's memory, the names, which the next
 * answer replaces): clearing it, in a finally, cost a noticeable share of a point read.
 */
function readWhole(u8, dv, pos, len, read, raw, keys) {
  au8 = u8, adv = dv, apos = pos, akeys = keys;
  anames.length = 0;
  const out = read(raw);
  if (apos !== pos + len) throw new Error("tabletop: engine answer is malformed");
  return out;
}

function pageAt(raw) {
  const next = [text(), text()];
  const plan = text();
  const count = adv.getUint32(apos, true);
  apos += 4;
  const entities = new Array(count);
  for (let i = 0; i < count; i++) entities[i] = entityAt(raw);
  return { next, plan, entities };
}

function entityAt(raw) {
  const flags = au8[apos++];
  const timestamp = text();
  const out = { etag: etagOf(timestamp) };
  if (flags & 1) out.partitionKey = akeys ? knownText(akeys[0]) : text();
  if (flags & 2) out.rowKey = akeys ? knownText(akeys[1]) : text();
  if (flags & 4) out.timestamp = timestamp;
  const count = adv.getUint32(apos, true);
  apos += 4;
  for (let i = 0; i < count; i++) {
    const tag = au8[apos++];
    const name = nameAt();
    out[name] = answerValue(tag, raw);
  }
  return out;
}

/**
 * etagOf is the ETag of an entity of that Timestamp text, as the engine makes it
 * (core.AppendETag: each ':' written %3A). The engine's Timestamps have their two colons
 * at 13 and 16 ("2021-08-31T15:40:49.6724407Z"); slicing there costs a fraction of a
 * replaceAll, which is kept for any other text.
 */
function etagOf(ts) {
  if (ts.length === 28 && ts.charCodeAt(13) === 58 && ts.charCodeAt(16) === 58 && ts.indexOf(":", 17) < 0) {
    return `W/"datetime'${ts.slice(0, 13)}%3A${ts.slice(14, 16)}%3A${ts.slice(17)}'"`;
  }
  return `W/"datetime'${ts.replaceAll(":", "%3A")}'"`;
}

/** nameAt reads a property name: a text, numbered while fewer than maxNames are, or the number of an earlier one. */
function nameAt() {
  const n = adv.getUint32(apos, true);
  if (n < nameRef) {
    const name = text();
    if (anames.length < maxNames) anames.push(name);
    return name;
  }
  apos += 4;
  const name = anames[n - nameRef];
  if (name === undefined) throw new Error("tabletop: entity answer is malformed");
  return name;
}

/** answerValue reads the value of a property of type tag. */
function answerValue(tag, raw) {
  let v;
  switch (answerTypes[tag]) {
    case "String":
    case "DateTime":
    case "Guid":
      v = text();
      break;
    case "Binary": {
      const n = adv.getUint32(apos, true);
      const bytes = au8.slice(apos + 4, apos + 4 + n);
      apos += 4 + n;
      return raw ? { value: toBase64(bytes), type: "Binary" } : bytes;
    }
    case "Boolean":
      v = au8[apos++] === 1;
      break;
    case "Double":
      v = adv.getFloat64(apos, true);
      apos += 8;
      break;
    case "Int32":
      v = adv.getInt32(apos, true);
      apos += 4;
      break;
    case "Int64":
      v = adv.getBigInt64(apos, true);
      apos += 8;
      break;
    default:
      if (tag !== typeNull) throw new Error("tabletop: entity answer is malformed");
      return property(null, undefined, raw);
  }
  const type = answerTypes[tag];
  return property(v, type === "String" || type === "Boolean" ? undefined : type, raw);
}

/**
 * text reads a length and UTF-8 bytes. ASCII texts up to shortText bytes (keys, names,
 * a Timestamp) are built by a loop: a TextDecoder call costs more in Chromium than the
 * loop for such texts.
 */
function text() {
  const n = adv.getUint32(apos, true);
  const start = apos + 4;
  apos = start + n;
  if (n > shortText) return textDecoder.decode(au8.subarray(start, apos));
  let s = "";
  for (let i = start; i < apos; i++) {
    const c = au8[i];
    if (c > 0x7f) return textDecoder.decode(au8.subarray(start, apos));
    s += String.fromCharCode(c);
  }
  return s;
}

const shortText = 128;

/**
 * knownText reads a text that is likely to be s: s itself when it is (ASCII text, whose
 * UTF-8 bytes are its UTF-16 units), else the text read. A point read's keys are those it
 * asked for, so its answer's keys are taken from the call rather than built again.
 */
function knownText(s) {
  const n = adv.getUint32(apos, true);
  const start = apos + 4;
  if (n !== s.length) return text();
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f || au8[start + i] !== c) return text();
  }
  apos = start + n;
  return s;
}

function typed(v, type, raw) {
  if (v === null) return null;
  if (raw) return { value: typeof v === "string" ? v : String(v), type };
  switch (type) {
    case "Int64": return BigInt(v);
    case "Int32":
    case "Double": return Number(v);
    case "DateTime": return remember(new Date(v), v);
    case "Binary": return fromBase64(v);
    case "Guid": return { value: v, type };
    default: return v;
  }
}

/** inferred is the { value, type } of an unannotated value, as the SDK infers it. */
function inferred(v) {
  switch (typeof v) {
    case "boolean": return { value: String(v), type: "Boolean" };
    case "number": return { value: String(v), type: Number.isSafeInteger(v) ? "Int32" : "Double" };
    case "string": return { value: v, type: "String" };
  }
  return v;
}

function remember(d, text) {
  Object.defineProperty(d, exact, { value: { text, ms: d.getTime() } });
  return d;
}

/** toBase64 encodes bytes as standard base64. */
export function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** fromBase64 decodes standard base64. */
export function fromBase64(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** selectText maps the SDK's select list to $select text, dropping etag as the SDK does. */
export function selectText(select) {
  if (!select) return "";
  return select.filter((p) => p !== "etag" && p !== "odata.etag").map((p) => toWireName[p] ?? p).join(",");
}
