// Tabletop from a user's own Worker, through a service binding to the Tabletop worker's
// RPC entrypoint (worker/edge/src/rpc.mjs): the browser module's TableServiceClient and
// TableClient, shaped like @azure/data-tables', over the binding instead of a local store.
// No credential, no signing, no URL: the binding is the capability.
//
//   # wrangler.toml of the user's Worker
//   services = [{ binding = "TABLETOP", service = "tabletop", entrypoint = "Tabletop" }]
//
//   import { TableClient } from "../tabletop/worker/edge/binding/client.mjs"; // this repository
//   const people = new TableClient(env.TABLETOP, "people");
//   await people.createEntity({ partitionKey: "p", rowKey: "1", name: "Ann" });
//
// Values are converted exactly as the browser module converts them (web/src/values.js):
// Int64 as bigint, DateTime as Date, Binary as Uint8Array, { value, type } objects in
// both directions; failures are RestErrors with Azure's code and status. Options take
// { account } to choose one of the worker's accounts (the first by default).
import { entityJSON, keysJSON, fromWire, selectText } from "../../../web/src/values.js";
import { paged, encodeEntityToken, decodeEntityToken } from "../../../web/src/pages.js";
import { RestError, isRestError, invalidInput, checkAbort } from "../../../web/src/errors.js";
import { TableTransaction, transactionAction, checkMode } from "../../../web/src/transaction.js";

export { RestError, isRestError, TableTransaction };
export { odata } from "../../../web/src/odata.js";

const API_VERSION = "2019-02-02";

/** headers are the response headers the SDK returns with every write. */
function headers(extra = {}) {
  return { date: new Date(), requestId: crypto.randomUUID(), version: API_VERSION, ...extra };
}

/** unwrap returns an RPC answer's value, or throws its error as a RestError. */
async function unwrap(answer) {
  const { value, error } = await answer;
  if (error) throw new RestError(error.message, error);
  return value;
}

/** checkBinding throws unless binding looks like a service binding to the entrypoint. */
function checkBinding(binding) {
  if (!binding || typeof binding.write !== "function") {
    throw invalidInput("the first argument must be the service binding to Tabletop's RPC entrypoint (entrypoint = \"Tabletop\")");
  }
}

/** TableServiceClient manages the tables of an account, like the SDK's. */
export class TableServiceClient {
  /** @param binding the service binding; options.account names the account (default: the first). */
  constructor(binding, options = {}) {
    checkBinding(binding);
    this._binding = binding;
    this._account = options.account ?? "";
  }

  /** createTable creates a table; an existing one is not an error, as in the SDK. */
  async createTable(name, options) {
    checkAbort(options);
    await ignoring(unwrap(this._binding.createTable(this._account, name)), "TableAlreadyExists");
  }

  /** deleteTable deletes a table and its entities; a missing one is not an error. */
  async deleteTable(name, options) {
    checkAbort(options);
    await ignoring(unwrap(this._binding.deleteTable(this._account, name)), "ResourceNotFound");
  }

  /** listTables lists tables ({ name }), filtered by options.queryOptions.filter; iterate or .byPage(). */
  listTables(options = {}) {
    const filter = options.queryOptions?.filter ?? "";
    return paged(async (top, token) => {
      checkAbort(options);
      const q = { filter, top: top ?? options.queryOptions?.top ?? 0, next: token ?? "" };
      const { names, next } = await unwrap(this._binding.listTables(this._account, q));
      return Object.assign(names.map((name) => ({ name })), { continuationToken: next || undefined });
    });
  }
}

/** TableClient works on the entities of one table, like the SDK's. */
export class TableClient {
  /** @param binding the service binding; options.account names the account (default: the first). */
  constructor(binding, tableName, options = {}) {
    checkBinding(binding);
    this._binding = binding;
    this._account = options.account ?? "";
    this.tableName = tableName;
  }

  /** createTable creates this table; an existing one is not an error. */
  async createTable(options) {
    checkAbort(options);
    await ignoring(unwrap(this._binding.createTable(this._account, this.tableName)), "TableAlreadyExists");
  }

  /** deleteTable deletes this table; a missing one is not an error. */
  async deleteTable(options) {
    checkAbort(options);
    await ignoring(unwrap(this._binding.deleteTable(this._account, this.tableName)), "ResourceNotFound");
  }

  /** _write performs one entity write and answers the SDK's headers with the etag. */
  async _write(kind, json, ifMatch, options) {
    checkAbort(options);
    const etag = await unwrap(this._binding.write(this._account, this.tableName, kind, json, ifMatch));
    return headers(etag ? { etag } : {});
  }

  /** createEntity inserts an entity; EntityAlreadyExists if one has its keys. */
  async createEntity(entity, options) {
    return this._write("create", entityJSON(entity), "", options);
  }

  /** upsertEntity inserts the entity, or merges into (default) or replaces the existing one. */
  async upsertEntity(entity, mode = "Merge", options) {
    return this._write(`upsert${checkMode(mode)}`, entityJSON(entity), "", options);
  }

  /** updateEntity merges into (default) or replaces an existing entity, if options.etag matches ("*" by default). */
  async updateEntity(entity, mode = "Merge", options = {}) {
    return this._write(`update${checkMode(mode)}`, entityJSON(entity), options.etag ?? "*", options);
  }

  /** deleteEntity deletes an entity, if options.etag matches ("*" by default). */
  async deleteEntity(partitionKey, rowKey, options = {}) {
    const { etag, ...rest } = await this._write("delete", keysJSON(partitionKey, rowKey), options.etag ?? "*", options);
    return rest;
  }

  /** getEntity reads one entity; options.queryOptions.select, options.disableTypeConversion as in the SDK. */
  async getEntity(partitionKey, rowKey, options = {}) {
    checkAbort(options);
    const sel = selectText(options.queryOptions?.select);
    const json = await unwrap(this._binding.getEntity(this._account, this.tableName, partitionKey, rowKey, sel));
    return fromWire(JSON.parse(json), options.disableTypeConversion);
  }

  /** listEntities queries the table: options.queryOptions { filter, select, top }; iterate or .byPage(). */
  listEntities(options = {}) {
    const q = options.queryOptions ?? {};
    const query = { filter: q.filter ?? "", select: selectText(q.select) };
    return paged(async (top, token) => {
      checkAbort(options);
      const page = { ...query, top: top ?? q.top ?? 0, next: decodeEntityToken(token) };
      const { json, next } = await unwrap(this._binding.listEntities(this._account, this.tableName, page));
      const entities = JSON.parse(json).map((e) => fromWire(e, options.disableTypeConversion));
      return Object.assign(entities, { continuationToken: encodeEntityToken(next) });
    });
  }

  /**
   * submitTransaction applies actions atomically: ["create", entity], ["delete", entity,
   * { etag }?], ["update", entity, mode?, { etag }?], ["upsert", entity, mode?]. All or
   * nothing; a failure is a RestError whose message starts with the failing action's index.
   */
  async submitTransaction(actions, options) {
    checkAbort(options);
    const writes = actions.map(transactionAction);
    const etags = await unwrap(this._binding.submitTransaction(this._account, this.tableName, writes));
    const responses = etags.map((etag, i) => ({ status: 204, rowKey: actions[i][1].rowKey, ...(etag && { etag }) }));
    return { status: 202, subResponses: responses, getResponseForEntity: (rk) => responses.find((r) => r.rowKey === rk), ...headers() };
  }
}


/** ignoring awaits p, treating a RestError with that code as success. */
async function ignoring(p, code) {
  try {
    await p;
  } catch (e) {
    if (e.code !== code) throw e;
  }
}
