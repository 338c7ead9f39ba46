// The Workers RPC entrypoint: Tabletop as storage for a user's own Worker, reached through
// a service binding, with no HTTP signing and no trip over the internet:
//
//   # the user's wrangler.toml
//   services = [{ binding = "TABLETOP", service = "tabletop", entrypoint = "Tabletop" }]
//
// A service binding is a capability: only Workers the owner of this account binds can
// call it, so the entrypoint acts for the account with the account's own key. Each method
// makes the REST call an Azure SDK would (restcall.mjs) and sends it through the entry
// Worker in this same isolate, so a binding call is checked, stored and answered exactly
// as the REST API answers it. Methods never throw for a service error (RPC keeps only an
// error's message): they resolve to { value } or { error: { code, statusCode, message,
// index? } }. The binding client, worker/edge/binding/client.mjs, turns that into the
// browser module's TableClient API, RestError included.
//
// Every method takes the account first: "" means the first account of TABLETOP_ACCOUNTS.
import { WorkerEntrypoint } from "cloudflare:workers";
import entry from "./entry.mjs";
import { accountKeys, signedRequest, entityPath, failure, batchBody, batchContentType, batchAnswer } from "./restcall.mjs";

const NO_CONTENT = { prefer: "return-no-content" };

export class Tabletop extends WorkerEntrypoint {
  /** createTable creates a table: TableAlreadyExists if it exists. */
  createTable(account, table) {
    return this._call(account, { method: "POST", path: "/Tables", headers: NO_CONTENT, body: JSON.stringify({ TableName: table }) }, () => null);
  }

  /** deleteTable deletes a table and its entities: ResourceNotFound if there is none. */
  deleteTable(account, table) {
    return this._call(account, { method: "DELETE", path: `/Tables('${encodeURIComponent(String(table).replace(/'/g, "''"))}')` }, () => null);
  }

  /** listTables answers one page of table names: { names, next } (next "" on the last page). */
  listTables(account, { filter, top, next } = {}) {
    const query = { $filter: filter, $top: top || undefined, NextTableName: next };
    return this._call(account, { method: "GET", path: "/Tables", query }, async (res) => ({
      names: JSON.parse(await res.text()).value.map((t) => t.TableName),
      next: res.headers.get("x-ms-continuation-nexttablename") ?? "",
    }));
  }

  /**
   * write performs one entity write on table: kind "create", "upsertMerge",
   * "upsertReplace", "updateMerge", "updateReplace" or "delete", with the entity's wire
   * JSON (keys only for a delete) and If-Match for updates and deletes. It answers the
   * new ETag ("" for a delete).
   */
  write(account, table, kind, json, ifMatch = "*") {
    const call = writeCall(table, kind, json, ifMatch);
    if (call.error) return call;
    return this._call(account, call, (res) => res.headers.get("etag") ?? "");
  }

  /** getEntity answers one entity as wire JSON text; select is "" or a $select list. */
  getEntity(account, table, partitionKey, rowKey, select = "") {
    return this._call(account, { method: "GET", path: entityPath(table, partitionKey, rowKey), query: { $select: select } }, (res) => res.text());
  }

  /**
   * listEntities answers one page of a query as { json, next: [partitionKey, rowKey] },
   * json being the wire JSON text of the entities' array.
   */
  listEntities(account, table, { filter, select, top, next = ["", ""] } = {}) {
    const query = { $filter: filter, $select: select, $top: top || undefined, NextPartitionKey: next[0], NextRowKey: next[1] };
    return this._call(account, { method: "GET", path: `/${encodeURIComponent(table)}()`, query }, async (res) => ({
      json: JSON.stringify(JSON.parse(await res.text()).value),
      next: [res.headers.get("x-ms-continuation-nextpartitionkey") ?? "", res.headers.get("x-ms-continuation-nextrowkey") ?? ""],
    }));
  }

  /**
   * submitTransaction applies [kind, json, ifMatch] writes (as write takes them) to table
   * atomically, as one entity group transaction; it answers each write's new ETag.
   */
  async submitTransaction(account, table, actions) {
    const name = this._account(account);
    if (name.error) return name;
    const framed = [];
    for (const [kind, json, ifMatch] of actions) {
      const call = writeCall(table, kind, json, ifMatch || "*");
      if (call.error) return call;
      framed.push([call.method, call.path, call.body ?? "", call.headers?.["if-match"] ?? ""]);
    }
    const body = batchBody(name.value, framed);
    return this._call(account, { method: "POST", path: "/$batch", headers: { "content-type": batchContentType }, body }, async (res) => {
      const answer = batchAnswer(await res.text());
      if (answer.error) throw Object.assign(new Error("transaction failed"), { answer: answer.error });
      return answer.etags;
    });
  }

  /** _account resolves the account a call names: { value: name } or { error }. */
  _account(account) {
    const keys = accountKeys(this.env.TABLETOP_ACCOUNTS);
    const name = account || keys.keys().next().value;
    if (!name || !keys.has(name)) {
      return { error: { code: "InvalidInput", statusCode: 400, message: `account ${account || "(first)"} is not served here` } };
    }
    return { value: name, key: keys.get(name) };
  }

  /** _call sends one signed REST call through the entry Worker and reads its answer. */
  async _call(account, call, read) {
    const acct = this._account(account);
    if (acct.error) return acct;
    try {
      const req = await signedRequest({ account: acct.value, key: acct.key, ...call });
      const res = await entry.fetch(req, this.env, this.ctx);
      if (res.status >= 400) return { error: failure(res.status, await res.text(), res.headers) };
      return { value: await read(res) };
    } catch (err) {
      if (err.answer) return { error: err.answer };
      return { error: { code: "InternalError", statusCode: 500, message: String(err?.message ?? err) } };
    }
  }
}

/** writeCall is the REST call of one entity write, or { error } for an unknown kind or JSON that is not an object. */
function writeCall(table, kind, json, ifMatch) {
  let keys;
  try {
    keys = JSON.parse(json);
  } catch (err) {
    return invalid(`entity JSON: ${err.message}`);
  }
  if (keys === null || typeof keys !== "object") return invalid("entity JSON is not an object");
  const path = entityPath(table, keys.PartitionKey, keys.RowKey);
  switch (kind) {
    case "create": return { method: "POST", path: `/${encodeURIComponent(table)}`, headers: NO_CONTENT, body: json };
    case "upsertMerge": return { method: "PATCH", path, body: json };
    case "upsertReplace": return { method: "PUT", path, body: json };
    case "updateMerge": return { method: "PATCH", path, headers: { "if-match": ifMatch }, body: json };
    case "updateReplace": return { method: "PUT", path, headers: { "if-match": ifMatch }, body: json };
    case "delete": return { method: "DELETE", path, headers: { "if-match": ifMatch } };
  }
  return invalid(`unknown write ${kind}`);
}

function invalid(message) {
  return { error: { code: "InvalidInput", statusCode: 400, message } };
}
