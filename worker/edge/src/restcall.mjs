// REST calls that the RPC entrypoint (rpc.mjs) makes on a bound Worker's behalf: each
// operation becomes the request an Azure SDK would send, signed with the account's own key
// (Shared Key Lite), and goes through the entry Worker's fetch like any other request, so
// that a binding caller gets exactly the REST API's behaviour, checks and errors. The
// answers come back in wire form (entity JSON as text), for the binding client
// (worker/edge/binding/client.mjs) to convert as the browser module does.
//
// This module is plain JavaScript (Web Crypto, fetch's Request and Response): it loads
// in Node as well as in workerd.

const VERSION = "2019-02-02";
const ACCEPT = "application/json;odata=minimalmetadata";
const ORIGIN = "http://127.0.0.1"; // an IP: the account is named in the path

/** accountKeys maps each account of TABLETOP_ACCOUNTS ("name:key[:key2];…") to its first key. */
export function accountKeys(value) {
  const keys = new Map();
  for (const entry of String(value ?? "").split(";")) {
    const [name, key] = entry.split(":").map((s) => s.trim());
    if (name && key) keys.set(name, key);
  }
  return keys;
}

const hmacKeys = new Map();

/** sign returns the Shared Key Lite signature of stringToSign with a base64 account key. */
async function sign(key, stringToSign) {
  let k = hmacKeys.get(key);
  if (!k) {
    const raw = Uint8Array.from(atob(key), (c) => c.charCodeAt(0));
    k = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacKeys.set(key, k);
  }
  const mac = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(stringToSign));
  return btoa(String.fromCharCode(...new Uint8Array(mac)));
}

/**
 * signedRequest builds the Request of one REST call for account, signed with key:
 * method, path below the account ("/Tables", "/t(PartitionKey='p',RowKey='r')"), query
 * parameters, extra headers and body.
 */
export async function signedRequest(call) {
  const { url, headers } = await signedHead(call);
  return new Request(url, { method: call.method, headers, body: call.body });
}

/**
 * signedHead is the URL (a URL) and headers (a Headers) of the REST call signedRequest
 * builds, for a caller that needs no Request (the Workers runtime allows none with a body
 * in the global scope, where warmup.mjs runs).
 */
export async function signedHead({ account, key, path, query = {}, headers = {}, body }) {
  const url = new URL(`${ORIGIN}/${account}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
  const date = new Date().toUTCString();
  const comp = url.searchParams.get("comp");
  const resource = `/${account}${url.pathname}${comp ? `?comp=${comp}` : ""}`;
  const h = new Headers({ accept: ACCEPT, "x-ms-version": VERSION, "x-ms-date": date, dataserviceversion: "3.0", ...headers });
  h.set("authorization", `SharedKeyLite ${account}:${await sign(key, `${date}\n${resource}`)}`);
  if (body !== undefined && !h.has("content-type")) h.set("content-type", "application/json");
  return { url, headers: h };
}

/** entityPath is the path of one entity, its keys quoted and escaped as the SDKs write them. */
export function entityPath(table, partitionKey, rowKey) {
  const q = (s) => encodeURIComponent(String(s ?? "").replace(/'/g, "''"));
  return `/${encodeURIComponent(table)}(PartitionKey='${q(partitionKey)}',RowKey='${q(rowKey)}')`;
}

/**
 * failure turns an error answer into { code, statusCode, message, index }: the message
 * without the RequestId and Time lines the service appends, and, for a failed
 * transaction, the failing action's index from its "2:" prefix.
 */
export function failure(status, text, headers) {
  let code = headers?.get?.("x-ms-error-code") ?? undefined;
  let message = text;
  try {
    const e = JSON.parse(text)["odata.error"];
    code = e.code ?? code;
    message = e.message?.value ?? message;
  } catch {
    // not JSON: the text is the message
  }
  message = String(message).split("\nRequestId:")[0];
  const m = /^(\d+):/.exec(message);
  return { code, statusCode: status, message, ...(m && { index: Number(m[1]) }) };
}

/** BATCH and CHANGESET are the boundaries of a transaction's body. */
const BATCH = "batch_tabletop", CHANGESET = "changeset_tabletop";

/**
 * batchBody is the multipart body of a transaction on table: each action is
 * [method, path, json body or "", If-Match or ""], as the SDKs frame them.
 */
export function batchBody(account, actions) {
  let b = `--${BATCH}\r\nContent-Type: multipart/mixed; boundary=${CHANGESET}\r\n\r\n`;
  for (const [method, path, json, ifMatch] of actions) {
    b += `--${CHANGESET}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n`;
    b += `${method} ${ORIGIN}/${account}${path} HTTP/1.1\r\nAccept: ${ACCEPT}\r\nDataServiceVersion: 3.0\r\n`;
    if (json) b += "Content-Type: application/json\r\nPrefer: return-no-content\r\n";
    if (ifMatch) b += `If-Match: ${ifMatch}\r\n`;
    b += `\r\n${json}\r\n`;
  }
  return b + `--${CHANGESET}--\r\n--${BATCH}--\r\n`;
}

/** batchContentType is the Content-Type of a batchBody. */
export const batchContentType = `multipart/mixed; boundary=${BATCH}`;

/**
 * batchAnswer reads a transaction's 202 answer: the etag of each action in order, or the
 * failure of the one that failed (the service then answers it alone).
 */
export function batchAnswer(text) {
  const parts = text.split(/--changesetresponse_[^\r\n]*/).slice(1, -1);
  const etags = [];
  for (const part of parts) {
    const status = Number(/HTTP\/1\.1 (\d+)/.exec(part)?.[1]);
    if (status >= 400) {
      const body = part.slice(part.search(/\r?\n\r?\n\{/)).trim();
      return { error: failure(status, body.slice(body.indexOf("{"))) };
    }
    etags.push(/^ETag: (.*)$/m.exec(part)?.[1]?.trim() ?? "");
  }
  return { etags };
}
