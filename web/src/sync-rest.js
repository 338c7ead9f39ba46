// The remote end of a sync: one table of an Azure Table endpoint (Azure, Azurite, or a
// Tabletop server, native or at the edge), reached over the ordinary REST protocol with
// fetch, authorized with Shared Key (an AzureNamedKeyCredential: the request is signed as
// Microsoft's "Authorize with Shared Key" documents for the Table service) or a SAS (an
// AzureSASCredential, or a token already in the URL).

import { hmacSHA256 } from "./sas.js";
import { fromBase64, toBase64 } from "./values.js";
import { batchBody, batchResponses } from "./sync-batch.js";

const VERSION = "2019-02-02";
const JSON_ACCEPT = "application/json;odata=minimalmetadata";

/** RemoteTable sends the requests of a sync to one remote table. */
export class RemoteTable {
  /**
   * @param {string} url the account endpoint: "https://{account}.table.core.windows.net",
   *   or path style "http://127.0.0.1:10002/devstoreaccount1" (a SAS may follow "?")
   * @param {string} table the remote table's name
   * @param credential an AzureNamedKeyCredential, an AzureSASCredential, or none (a SAS in url)
   * @param options fetch, and WebSocket (the constructor of live sync's sockets; null: none)
   */
  constructor(url, table, credential, { fetch: f, WebSocket: ws } = {}) {
    const u = new URL(url);
    this.base = u.origin + u.pathname.replace(/\/+$/, "");
    this.table = table;
    this.credential = credential;
    this._sas = u.search.slice(1) || (credential?.signature ? String(credential.signature).replace(/^\?/, "") : "");
    this.account = credential?.name ?? accountOf(u);
    this._fetch = f ?? ((...a) => globalThis.fetch(...a));
    this.WebSocket = ws === undefined ? globalThis.WebSocket : ws;
  }

  /**
   * changes reads a page of Tabletop's change feed after checkpoint since ("" for the
   * start); with wait, a page with no change may be held up to wait seconds for one, or,
   * with subscribe too, answered at once with a socket's ticket where the endpoint offers
   * sockets (sync-live.js); signal aborts the request.
   */
  changes(since, top, filter, { wait, subscribe, signal } = {}) {
    const query = { comp: "changes", since, $top: String(top), $filter: filter, wait: wait && String(wait), subscribe: subscribe ? "1" : undefined };
    return this.request("GET", `${this.table}()`, query, { signal });
  }

  /** socketURL is the URL of the subscriber socket a change feed page's ticket opens. */
  socketURL(ticket) {
    const u = new URL(`${this.base}/${this.table}()`);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    u.search = `comp=changes&subscribe=${encodeURIComponent(ticket)}`;
    return u.href;
  }

  /** query reads a page of Query Entities. */
  query(filter, select, top, next) {
    return this.request("GET", `${this.table}()`, {
      $filter: filter, $select: select, $top: top && String(top), NextPartitionKey: next?.[0], NextRowKey: next?.[1],
    });
  }

  /** get reads one entity. */
  get(pk, rk) {
    return this.request("GET", entityPath(this.table, pk, rk));
  }

  /** insert inserts an entity from its JSON body. */
  insert(body) {
    return this.request("POST", this.table, {}, { body, headers: { Prefer: "return-no-content" } });
  }

  /** replace replaces an entity if its ETag is etag. */
  replace(pk, rk, body, etag) {
    return this.request("PUT", entityPath(this.table, pk, rk), {}, { body, headers: { "If-Match": etag } });
  }

  /** remove deletes an entity if its ETag is etag. */
  remove(pk, rk, etag) {
    return this.request("DELETE", entityPath(this.table, pk, rk), {}, { headers: { "If-Match": etag } });
  }

  /**
   * batch sends ops ({ method, path, body?, etag? }) of one partition as one entity group
   * transaction; it answers the sub-responses ([{ status, etag }]) when all succeeded,
   * null when the transaction failed (nothing applied), and throws for any other failure.
   */
  async batch(ops) {
    const { body, contentType } = batchBody(this.base, ops);
    const res = await this.request("POST", "$batch", {}, { body, headers: { "Content-Type": contentType } });
    if (!res.ok) throw remoteError(res, "$batch");
    const subs = batchResponses(res.text);
    if (subs.length === ops.length && subs.every((r) => r.status < 300)) return subs;
    return null;
  }

  /** createTable creates the remote table; an existing one is not an error. */
  async createTable() {
    const res = await this.request("POST", "Tables", {}, { body: JSON.stringify({ TableName: this.table }), headers: { Prefer: "return-no-content" } });
    if (res.status === 409 || res.ok) return res;
    throw remoteError(res);
  }

  /** request sends one request and answers { status, ok, headers, text, code }. */
  async request(method, resource, query = {}, { body, headers = {}, signal } = {}) {
    const params = Object.entries(query).filter(([, v]) => v !== undefined && v !== "");
    let search = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
    if (this._sas) search = search ? `${search}&${this._sas}` : this._sas;
    const url = new URL(`${this.base}/${resource}${search ? "?" + search : ""}`);
    const h = {
      Accept: JSON_ACCEPT,
      "x-ms-version": VERSION,
      "x-ms-date": new Date().toUTCString(),
      DataServiceVersion: "3.0;NetFx",
      MaxDataServiceVersion: "3.0;NetFx",
      ...headers,
    };
    if (body !== undefined) h["Content-Type"] ??= "application/json";
    if (this.credential?.key) h.Authorization = this._sharedKey(method, url, h);
    let res;
    try {
      res = await this._fetch(url.href, { method, headers: h, body, signal });
    } catch (e) {
      throw Object.assign(new Error(`tabletop sync: ${method} ${url.pathname} failed: ${e.message}`), { code: "NetworkError", statusCode: 0, offline: true, cause: e });
    }
    const text = await res.text();
    return { status: res.status, ok: res.ok, headers: res.headers, text, code: res.ok ? undefined : errorCode(res, text) };
  }

  /** _sharedKey signs a request: "VERB\nContent-MD5\nContent-Type\nDate\nCanonicalizedResource". */
  _sharedKey(method, url, h) {
    const comp = url.searchParams.get("comp");
    const resource = `/${this.account}${url.pathname}${comp !== null ? "?comp=" + comp : ""}`;
    const text = [method, "", h["Content-Type"] ?? "", h["x-ms-date"], resource].join("\n");
    const sig = toBase64(hmacSHA256(fromBase64(this.credential.key), new TextEncoder().encode(text)));
    return `SharedKey ${this.account}:${sig}`;
  }
}

/** accountOf finds the account name in an endpoint URL: the first path segment (path style) or host label. */
function accountOf(u) {
  const segment = u.pathname.split("/").filter(Boolean)[0];
  return segment ?? u.hostname.split(".")[0];
}

/** entityPath is {table}(PartitionKey='…',RowKey='…'), quotes doubled and the keys percent-encoded. */
export function entityPath(table, pk, rk) {
  const q = (s) => encodeURIComponent(s.replaceAll("'", "''"));
  return `${table}(PartitionKey='${q(pk)}',RowKey='${q(rk)}')`;
}

/** errorCode reads the Azure error code of a failed response (header, else the JSON body). */
function errorCode(res, text) {
  const h = res.headers.get("x-ms-error-code");
  if (h) return h;
  try {
    return JSON.parse(text)["odata.error"]?.code ?? `Http${res.status}`;
  } catch {
    return `Http${res.status}`;
  }
}

/** remoteError makes the Error a failed response is reported with: code, statusCode, message. */
export function remoteError(res, what = "request") {
  let message = res.text;
  try {
    message = JSON.parse(res.text)["odata.error"]?.message?.value ?? message;
  } catch {
    // not JSON
  }
  return Object.assign(new Error(`tabletop sync: ${what} failed: ${res.status} ${res.code}: ${String(message).slice(0, 300)}`), {
    code: res.code,
    statusCode: res.status,
  });
}

/**
 * listRemoteTables lists the table names of a remote endpoint (Query Tables, every page).
 * options: { credential, fetch }.
 */
export async function listRemoteTables(url, { credential, fetch } = {}) {
  const remote = new RemoteTable(url, "", credential, { fetch });
  const names = [];
  let next;
  do {
    const res = await remote.request("GET", "Tables", { NextTableName: next });
    if (!res.ok) throw remoteError(res, "list tables");
    for (const t of JSON.parse(res.text).value) names.push(t.TableName);
    next = res.headers.get("x-ms-continuation-NextTableName") ?? undefined;
  } while (next);
  return names;
}
