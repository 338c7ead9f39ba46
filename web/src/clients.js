// TableServiceClient and TableClient, shaped like @azure/data-tables' so that code written
// for Azure runs on a local store: the same methods, options (abortSignal works; the rest
// are accepted), results (etag, date, requestId, version) and errors (RestError).

import { storeOf, checkTarget } from "./store.js";
import { invalidInput, checkAbort } from "./errors.js";
import { entityJSON, keysJSON, selectText, entityAnswer, pageAnswer } from "./values.js";
import { paged, encodeEntityToken, decodeEntityToken } from "./pages.js";
import { exportDump, importDump } from "./dump.js";
import { Listeners, changeIterator } from "./events.js";
import { noteRead, reading } from "./live.js";
import { transactionAction, checkMode } from "./transaction.js";

const API_VERSION = "2019-02-02";

// Request IDs are GUIDs: a random prefix per page and a counter, cheaper than a random
// GUID per call and as unique within the page.
const idPrefix = crypto.randomUUID().slice(0, 24);
let idCounter = 0;

/** headers returns the response headers the SDK returns with every write. */
export function headers(extra = {}) {
  const requestId = idPrefix + (++idCounter).toString(16).padStart(12, "0");
  return { date: new Date(), requestId, version: API_VERSION, ...extra };
}

/** urlOf is a client's url: "tabletop:{store name}", where the SDK has the account URL. */
function urlOf(target) {
  return `tabletop:${typeof target === "string" ? target : target.name}`;
}

/** TableServiceClient manages the tables of a store, like the SDK's. */
export class TableServiceClient {
  /**
   * @param {import("./store.js").Store | string} store a Store, a store name (persistent),
   *   or "memory:name" (in memory); where the SDK takes the account URL. A credential and
   *   options after it are accepted and ignored.
   */
  constructor(store, _credential, _options) {
    checkTarget(store);
    this._target = store;
    this.url = urlOf(store);
  }

  /** fromConnectionString is the constructor, for code that starts from one: give it a store. */
  static fromConnectionString(store, options) {
    return new TableServiceClient(store, undefined, options);
  }

  /** _store returns the client's store, at once when it is open, else a Promise of it. */
  _store(options) {
    checkAbort(options);
    if (this._open && !this._open._closed) return this._open;
    return storeOf(this._target).then((s) => (this._open = s));
  }

  /** createTable creates a table; an existing one is not an error, as in the SDK. */
  async createTable(name, options) {
    await ignoring(createTable(await this._store(options), name), "TableAlreadyExists");
  }

  /** deleteTable deletes a table and its entities; a missing one is not an error. */
  async deleteTable(name, options) {
    await ignoring(deleteTable(await this._store(options), name), "TableNotFound");
  }

  /** listTables lists tables ({ name }), filtered by options.queryOptions.filter on TableName. */
  listTables(options = {}) {
    const filter = options.queryOptions?.filter ?? "";
    return paged(async (top, token) => {
      const store = await this._store(options);
      const json = await store._read("listTables", filter, String(top ?? options.queryOptions?.top ?? 0), token ?? "");
      const { next, page } = JSON.parse(json);
      return Object.assign(page.value.map((t) => ({ name: t.TableName })), { continuationToken: next || undefined });
    });
  }

  /** getProperties returns the service properties (kept with the store; they change nothing locally). */
  async getProperties(options) {
    const store = await this._store(options);
    return { ...(await store._serviceProperties()), ...headers() };
  }

  /** setProperties replaces the service properties that are given. */
  async setProperties(properties, options) {
    const store = await this._store(options);
    await store._setServiceProperties(properties);
    return headers();
  }

  /** getStatistics answers as a primary with a live replica: a local store has no lag. */
  async getStatistics(options) {
    await this._store(options);
    return { geoReplication: { status: "live", lastSyncOn: new Date() }, ...headers() };
  }

  /** exportStore returns the whole store in the Tabletop dump format (see dump.js). */
  async exportStore(options = {}) {
    return exportDump(await this._store(options), [], options);
  }

  /** importStore writes a dump's tables and entities into the store, atomically. */
  async importStore(dump, options = {}) {
    return importDump(await this._store(options), dump);
  }
}

/** TableClient works on the entities of one table, like the SDK's. */
export class TableClient {
  /**
   * @param {import("./store.js").Store | string} store as for TableServiceClient
   * @param {string} tableName
   */
  constructor(store, tableName, _credential, _options) {
    checkTarget(store);
    this._target = store;
    this.tableName = tableName;
    this.url = urlOf(store);
  }

  /** fromConnectionString is the constructor, for code that starts from one: give it a store. */
  static fromConnectionString(store, tableName, options) {
    return new TableClient(store, tableName, undefined, options);
  }

  /** _store returns the client's store, at once when it is open, else a Promise of it. */
  _store(options) {
    checkAbort(options);
    if (this._open && !this._open._closed) return this._open;
    return storeOf(this._target).then((s) => (this._open = s));
  }

  /** _entityWrite performs one entity write and answers the SDK's headers with the etag. */
  async _entityWrite(kind, body, ifMatch, keys, options) {
    let store = this._store(options);
    if (store instanceof Promise) store = await store;
    const json = await store._write("write", [this.tableName, kind, body, ifMatch], (j) => [
      { table: this.tableName, kind, ...keys, etag: j ? JSON.parse(j) || undefined : undefined },
    ]);
    const etag = JSON.parse(json);
    return headers(etag ? { etag } : {});
  }

  /** createTable creates this table; an existing one is not an error. */
  async createTable(options) {
    await ignoring(createTable(await this._store(options), this.tableName), "TableAlreadyExists");
  }

  /** deleteTable deletes this table; a missing one is not an error. */
  async deleteTable(options) {
    await ignoring(deleteTable(await this._store(options), this.tableName), "TableNotFound");
  }

  /** createEntity inserts an entity; EntityAlreadyExists if one has its keys. */
  async createEntity(entity, options) {
    return this._entityWrite("create", entityJSON(entity), "", keysOf(entity), options);
  }

  /** upsertEntity inserts the entity, or merges into (default) or replaces the existing one. */
  async upsertEntity(entity, mode = "Merge", options) {
    return this._entityWrite(`upsert${checkMode(mode)}`, entityJSON(entity), "", keysOf(entity), options);
  }

  /** updateEntity merges into (default) or replaces an existing entity, if options.etag matches ("*" by default). */
  async updateEntity(entity, mode = "Merge", options = {}) {
    return this._entityWrite(`update${checkMode(mode)}`, entityJSON(entity), options.etag ?? "*", keysOf(entity), options);
  }

  /** deleteEntity deletes an entity, if options.etag matches ("*" by default). */
  async deleteEntity(partitionKey, rowKey, options = {}) {
    const { etag, ...rest } = await this._entityWrite("delete", keysJSON(partitionKey, rowKey), options.etag ?? "*", { partitionKey, rowKey }, options);
    return rest;
  }

  /**
   * getEntity reads one entity, with etag and timestamp; options.queryOptions.select
   * limits the properties, options.disableTypeConversion returns { value, type } objects.
   */
  async getEntity(partitionKey, rowKey, options = {}) {
    let store = this._store(options);
    if (store instanceof Promise) store = await store;
    const sel = selectText(options.queryOptions?.select);
    if (reading()) noteRead(store, this.tableName, [[partitionKey, rowKey]]);
    const entity = store._readAs(entityAnswer(options.disableTypeConversion, partitionKey, rowKey), "getEntity", this.tableName, partitionKey, rowKey, sel);
    return entity instanceof Promise ? await entity : entity;
  }

  /** listEntities queries the table: options.queryOptions { filter, select }; iterate or .byPage(). */
  listEntities(options = {}) {
    const q = options.queryOptions ?? {};
    const filter = q.filter ?? "";
    const sel = selectText(q.select);
    return paged(async (top, token) => {
      const store = await this._store(options);
      const [pk, rk] = decodeEntityToken(token);
      let page = store._readAs(pageAnswer(options.disableTypeConversion), "queryEntities", this.tableName, filter, sel, String(top ?? q.top ?? 0), pk, rk);
      if (page instanceof Promise) page = await page;
      const { next, plan, entities } = page;
      if (reading()) noteRead(store, this.tableName, entities.map((e) => [e.partitionKey, e.rowKey]), filter); // 1,000 arrays a page otherwise
      return Object.assign(entities, { continuationToken: encodeEntityToken(next), plan });
    });
  }

  /**
   * submitTransaction applies actions atomically: ["create", entity], ["delete", entity,
   * { etag }?], ["update", entity, mode?, { etag }?], ["upsert", entity, mode?]. All or
   * nothing; a failure is a RestError whose message starts with the failing action's index.
   */
  async submitTransaction(actions, options) {
    const store = await this._store(options);
    const args = [this.tableName];
    const changes = [];
    for (const action of actions) {
      const [name, body, etag] = transactionAction(action);
      args.push(name, body, etag);
      changes.push({ table: this.tableName, kind: name, ...keysOf(action[1]) });
    }
    const json = await store._write("transaction", args, (j) => JSON.parse(j).map((etag, i) => ({ ...changes[i], etag: etag || undefined })));
    const responses = JSON.parse(json).map((etag, i) => ({
      status: 204,
      rowKey: actions[i][1].rowKey,
      ...(etag && { etag }),
    }));
    return { status: 202, subResponses: responses, getResponseForEntity: (rk) => responses.find((r) => r.rowKey === rk), ...headers() };
  }

  /** getAccessPolicy returns the table's stored access policies, as the SDK's signed identifiers. */
  async getAccessPolicy(options) {
    const store = await this._store(options);
    const list = JSON.parse(await store._read("getAccessPolicy", this.tableName));
    const ids = list.map(({ id, start, expiry, permission }) => ({
      id,
      accessPolicy: { ...(start && { start: new Date(start) }), ...(expiry && { expiry: new Date(expiry) }), ...(permission && { permission }) },
    }));
    return Object.assign(ids, { signedIdentifiers: ids }, headers());
  }

  /** setAccessPolicy replaces the table's stored access policies (at most five). */
  async setAccessPolicy(tableAcl = [], options) {
    const store = await this._store(options);
    const args = [this.tableName];
    for (const { id, accessPolicy: p = {} } of tableAcl) args.push(String(id ?? ""), timeText(p.start), timeText(p.expiry), p.permission ?? "");
    await store._write("setAccessPolicy", args, () => [{ table: this.tableName, kind: "setAccessPolicy" }]);
    return headers();
  }

  /**
   * createIndex declares a secondary index on a custom property of this table and builds
   * it (Tabletop's extension; declaring an existing one does nothing). Queries comparing
   * the property with eq, gt, ge, lt or le then read the index; a page's plan says so.
   */
  async createIndex(property, options) {
    const store = await this._store(options);
    await store._write("createIndex", [this.tableName, String(property)], () => [{ table: this.tableName, kind: "createIndex" }]);
  }

  /** dropIndex removes this table's index on property; ResourceNotFound if there is none. */
  async dropIndex(property, options) {
    const store = await this._store(options);
    await store._write("dropIndex", [this.tableName, String(property)], () => [{ table: this.tableName, kind: "dropIndex" }]);
  }

  /** listIndexes returns the properties this table has indexes on, in ordinal order. */
  async listIndexes(options) {
    const store = await this._store(options);
    return JSON.parse(await store._read("listIndexes", this.tableName));
  }

  /**
   * on("change", fn, { filter }?) calls fn with each change of this table, from this tab
   * and every other (see events.js); off("change", fn) stops it.
   */
  on(event, fn, options) {
    (this._listeners ??= new Listeners()).add(this._store(), this.tableName, event, fn, options);
    return this;
  }

  /** off removes a listener that on added. */
  off(event, fn) {
    this._listeners?.remove(event, fn);
    return this;
  }

  /** changes returns an async iterator of this table's changes from now on: options { filter, abortSignal }. */
  changes(options = {}) {
    return changeIterator(this._store(), this.tableName, options);
  }

  /** exportTable returns this table in the Tabletop dump format (see dump.js). */
  async exportTable(options = {}) {
    return exportDump(await this._store(options), [this.tableName], options);
  }

  /** importTable writes a dump of one table into this table (whatever table the dump names). */
  async importTable(dump, options = {}) {
    return importDump(await this._store(options), dump, this.tableName);
  }
}

function createTable(store, name) {
  return store._write("createTable", [name], () => [{ table: name, kind: "createTable" }]);
}

function deleteTable(store, name) {
  return store._write("deleteTable", [name], () => [{ table: name, kind: "deleteTable" }]);
}

function keysOf(entity) {
  return { partitionKey: entity?.partitionKey, rowKey: entity?.rowKey };
}

function timeText(t) {
  if (t === undefined || t === null) return "";
  return t instanceof Date ? t.toISOString() : String(t);
}


/** ignoring awaits p, treating a RestError with that code as success. */
async function ignoring(p, code) {
  try {
    await p;
  } catch (e) {
    if (e.code !== code) throw e;
  }
}
