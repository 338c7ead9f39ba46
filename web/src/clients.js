// TableServiceClient and TableClient, shaped like @azure/data-tables' so that code written
// for Azure runs on a local store.

import { storeOf } from "./store.js";
import { invalidInput } from "./errors.js";
import { entityJSON, keysJSON, fromWire, selectText } from "./values.js";
import { paged, encodeEntityToken, decodeEntityToken } from "./pages.js";

/** TableServiceClient manages the tables of a store, like the SDK's. */
export class TableServiceClient {
  /**
   * @param {import("./store.js").Store | string} store a Store, a store name (persistent),
   *   or "memory:name" (in memory); where the SDK takes the account URL.
   */
  constructor(store) {
    this._target = store;
  }

  /** fromConnectionString is the constructor, for code that starts from a connection string. */
  static fromConnectionString(store) {
    return new TableServiceClient(store);
  }

  async _call(op, ...args) {
    return (await storeOf(this._target))._call(op, ...args);
  }

  /** createTable creates a table; an existing one is not an error, as in the SDK. */
  async createTable(name) {
    await ignoring(this._call("createTable", name), "TableAlreadyExists");
  }

  /** deleteTable deletes a table and its entities; a missing one is not an error. */
  async deleteTable(name) {
    await ignoring(this._call("deleteTable", name), "TableNotFound");
  }

  /** listTables lists tables ({ name }), filtered by options.queryOptions.filter on TableName. */
  listTables(options = {}) {
    const filter = options.queryOptions?.filter ?? "";
    return paged(async (top, token) => {
      const { next, page } = JSON.parse(await this._call("listTables", filter, top ?? options.queryOptions?.top ?? 0, token ?? ""));
      return Object.assign(page.value.map((t) => ({ name: t.TableName })), { continuationToken: next || undefined });
    });
  }
}

/** TableClient works on the entities of one table, like the SDK's. */
export class TableClient {
  /**
   * @param {import("./store.js").Store | string} store as for TableServiceClient
   * @param {string} tableName
   */
  constructor(store, tableName) {
    this._target = store;
    this.tableName = tableName;
  }

  /** fromConnectionString is the constructor, for code that starts from a connection string. */
  static fromConnectionString(store, tableName) {
    return new TableClient(store, tableName);
  }

  async _call(op, ...args) {
    return (await storeOf(this._target))._call(op, ...args);
  }

  /** createTable creates this table; an existing one is not an error. */
  async createTable() {
    await ignoring(this._call("createTable", this.tableName), "TableAlreadyExists");
  }

  /** deleteTable deletes this table; a missing one is not an error. */
  async deleteTable() {
    await ignoring(this._call("deleteTable", this.tableName), "TableNotFound");
  }

  /** createEntity inserts an entity; EntityAlreadyExists if one has its keys. */
  async createEntity(entity) {
    return { etag: await this._call("write", this.tableName, "create", entityJSON(entity), "") };
  }

  /** upsertEntity inserts the entity, or merges into (default) or replaces the existing one. */
  async upsertEntity(entity, mode = "Merge") {
    return { etag: await this._call("write", this.tableName, `upsert${checkMode(mode)}`, entityJSON(entity), "") };
  }

  /** updateEntity merges into (default) or replaces an existing entity, if options.etag matches ("*" by default). */
  async updateEntity(entity, mode = "Merge", options = {}) {
    const action = `update${checkMode(mode)}`;
    return { etag: await this._call("write", this.tableName, action, entityJSON(entity), options.etag ?? "*") };
  }

  /** deleteEntity deletes an entity, if options.etag matches ("*" by default). */
  async deleteEntity(partitionKey, rowKey, options = {}) {
    await this._call("write", this.tableName, "delete", keysJSON(partitionKey, rowKey), options.etag ?? "*");
    return {};
  }

  /**
   * getEntity reads one entity, with etag and timestamp; options.queryOptions.select
   * limits the properties, options.disableTypeConversion returns { value, type } objects.
   */
  async getEntity(partitionKey, rowKey, options = {}) {
    const sel = selectText(options.queryOptions?.select);
    const json = await this._call("getEntity", this.tableName, partitionKey, rowKey, sel);
    return fromWire(JSON.parse(json), options.disableTypeConversion);
  }

  /** listEntities queries the table: options.queryOptions { filter, select }; iterate or .byPage(). */
  listEntities(options = {}) {
    const q = options.queryOptions ?? {};
    const filter = q.filter ?? "";
    const sel = selectText(q.select);
    return paged(async (top, token) => {
      const [pk, rk] = decodeEntityToken(token);
      const json = await this._call("queryEntities", this.tableName, filter, sel, top ?? q.top ?? 0, pk, rk);
      const { next, page } = JSON.parse(json);
      const entities = page.value.map((e) => fromWire(e, options.disableTypeConversion));
      return Object.assign(entities, { continuationToken: encodeEntityToken(next) });
    });
  }

  /**
   * submitTransaction applies actions atomically: ["create", entity], ["delete", entity],
   * ["update", entity, mode?, { etag }?], ["upsert", entity, mode?]. All or nothing; a
   * failure is a RestError whose message starts with the failing action's index.
   */
  async submitTransaction(actions) {
    const names = [], bodies = [], etags = [];
    for (const [kind, entity, mode = "Merge", options = {}] of actions) {
      const [name, body, etag] = transactionAction(kind, entity, mode, options);
      names.push(name), bodies.push(body), etags.push(etag);
    }
    const json = await this._call("transaction", this.tableName, names.join("\n"), bodies.join("\n"), etags.join("\n"));
    const responses = JSON.parse(json).map((etag, i) => ({
      status: 204,
      rowKey: actions[i][1].rowKey,
      ...(etag && { etag }),
    }));
    return { status: 202, subResponses: responses, getResponseForEntity: (rk) => responses.find((r) => r.rowKey === rk) };
  }
}

/** TableTransaction collects actions for TableClient.submitTransaction, as in the SDK. */
export class TableTransaction {
  constructor(actions = []) {
    this.actions = actions;
  }
  createEntity(entity) {
    this.actions.push(["create", entity]);
  }
  deleteEntity(partitionKey, rowKey) {
    this.actions.push(["delete", { partitionKey, rowKey }]);
  }
  updateEntity(entity, mode = "Merge", options) {
    this.actions.push(["update", entity, mode, options]);
  }
  upsertEntity(entity, mode = "Merge") {
    this.actions.push(["upsert", entity, mode]);
  }
}

function transactionAction(kind, entity, mode, options) {
  switch (kind) {
    case "create": return ["create", entityJSON(entity), ""];
    case "delete": return ["delete", keysJSON(entity.partitionKey, entity.rowKey), options.etag ?? "*"];
    case "update": return [`update${checkMode(mode)}`, entityJSON(entity), options.etag ?? "*"];
    case "upsert": return [`upsert${checkMode(mode)}`, entityJSON(entity), ""];
  }
  throw invalidInput(`unknown transaction action ${kind}`);
}

function checkMode(mode) {
  if (mode !== "Merge" && mode !== "Replace") throw invalidInput(`update mode must be "Merge" or "Replace", not ${mode}`);
  return mode;
}

/** ignoring awaits p, treating a RestError with that code as success. */
async function ignoring(p, code) {
  try {
    await p;
  } catch (e) {
    if (e.code !== code) throw e;
  }
}
