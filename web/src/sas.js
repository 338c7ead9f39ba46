// The SDK's credentials and shared access signatures. A local store needs no credential:
// the clients accept one and ignore it. generateTableSas and generateAccountSas compute
// real signatures, as Azure documents them (service SAS and account SAS, version
// 2019-02-02: https://learn.microsoft.com/rest/api/storageservices/create-service-sas and
// create-account-sas), so a page can mint tokens for a Tabletop server or for Azure.

import { fromBase64, toBase64 } from "./values.js";

const SAS_VERSION = "2019-02-02";

/** AzureNamedKeyCredential is an account name and key, as in @azure/core-auth. */
export class AzureNamedKeyCredential {
  constructor(name, key) {
    if (!name || !key) throw new TypeError("name and key must be non-empty strings");
    this._name = name;
    this._key = key;
  }
  get name() {
    return this._name;
  }
  get key() {
    return this._key;
  }
  /** update replaces the name and key. */
  update(newName, newKey) {
    if (!newName || !newKey) throw new TypeError("newName and newKey must be non-empty strings");
    this._name = newName;
    this._key = newKey;
  }
}

/** AzureSASCredential is a shared access signature, as in @azure/core-auth. */
export class AzureSASCredential {
  constructor(signature) {
    if (!signature) throw new TypeError("shared access signature must be a non-empty string");
    this._signature = signature;
  }
  get signature() {
    return this._signature;
  }
  /** update replaces the signature. */
  update(newSignature) {
    if (!newSignature) throw new TypeError("shared access signature must be a non-empty string");
    this._signature = newSignature;
  }
}

/**
 * generateTableSas returns a table service SAS token (a query string without "?"), as the
 * SDK's: options { permissions ({ query, add, update, delete } or "raud"), startsOn,
 * expiresOn (default one hour from now unless identifier is given), identifier, ipRange
 * ({ start, end? }), protocol, version, startPartitionKey, startRowKey, endPartitionKey,
 * endRowKey }.
 */
export function generateTableSas(tableName, credential, options = {}) {
  const o = withDefaults(options);
  const sp = letters(o.permissions, { query: "r", add: "a", update: "u", delete: "d" });
  const st = sasTime(o.startsOn), se = sasTime(o.expiresOn), sip = ipText(o.ipRange), spr = o.protocol ?? "";
  const resource = `/table/${credential.name}/${tableName.toLowerCase()}`;
  const parts = [sp, st, se, resource, o.identifier ?? "", sip, spr, o.version, o.startPartitionKey ?? "", o.startRowKey ?? "", o.endPartitionKey ?? "", o.endRowKey ?? ""];
  return query([
    ["sv", o.version], ["tn", tableName], ["spk", o.startPartitionKey], ["srk", o.startRowKey], ["epk", o.endPartitionKey], ["erk", o.endRowKey],
    ["st", st], ["se", se], ["sp", sp], ["sip", sip], ["spr", spr], ["si", o.identifier], ["sig", sign(credential.key, parts.join("\n"))],
  ]);
}

/**
 * generateAccountSas returns an account SAS token for the Table service, as the SDK's:
 * options { permissions ({ query, write, delete, list, add, update } or letters),
 * resourceTypes (default "sco"), services ({ blob, file, queue, table } or letters,
 * default "t"), startsOn, expiresOn (default one
 * hour from now), ipRange, protocol, version }.
 */
export function generateAccountSas(credential, options = {}) {
  const o = withDefaults(options);
  const sp = letters(o.permissions, { query: "r", write: "w", delete: "d", list: "l", add: "a", update: "u" });
  const srt = o.resourceTypes ?? "sco", ss = o.services ? letters(o.services, { blob: "b", file: "f", queue: "q", table: "t" }) : "t";
  const st = sasTime(o.startsOn), se = sasTime(o.expiresOn), sip = ipText(o.ipRange), spr = o.protocol ?? "";
  const parts = [credential.name, sp, ss, srt, st, se, sip, spr, o.version, ""];
  return query([["sv", o.version], ["ss", ss], ["srt", srt], ["sp", sp], ["st", st], ["se", se], ["sip", sip], ["spr", spr], ["sig", sign(credential.key, parts.join("\n"))]]);
}

function withDefaults(options) {
  const o = { version: SAS_VERSION, permissions: { query: true }, ...options };
  if (!o.expiresOn && !o.identifier) o.expiresOn = new Date(Date.now() + 3600_000);
  return o;
}

/** letters writes permissions in Azure's order; a string is kept as given. */
function letters(p, order) {
  if (typeof p === "string") return p;
  return Object.entries(order).filter(([k]) => p?.[k]).map(([, l]) => l).join("");
}

/** sasTime is a time as SAS tokens write it: ISO 8601 to the second, in UTC. */
function sasTime(t) {
  if (t === undefined || t === null || t === "") return "";
  return (t instanceof Date ? t : new Date(t)).toISOString().replace(/\.\d+Z$/, "Z");
}

function ipText(r) {
  return r ? (r.end ? `${r.start}-${r.end}` : r.start) : "";
}

function query(pairs) {
  return pairs.filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}

/** sign is base64(HMAC-SHA256(base64-decoded key, text)). */
function sign(key, text) {
  return toBase64(hmacSHA256(fromBase64(key), new TextEncoder().encode(text)));
}

/** hmacSHA256 computes HMAC-SHA256 (RFC 2104) synchronously, as the SDK's generators are. */
export function hmacSHA256(key, message) {
  if (key.length > 64) key = sha256(key);
  const k = new Uint8Array(64);
  k.set(key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) (inner[i] = k[i] ^ 0x36), (outer[i] = k[i] ^ 0x5c);
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** sha256 computes SHA-256 (FIPS 180-4) of bytes. */
export function sha256(bytes) {
  const len = bytes.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[len] = 0x80;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  dv.setUint32(padded.length - 4, (len << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  const out = new Uint8Array(32);
  const odv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) odv.setUint32(4 * i, h[i]);
  return out;
}
