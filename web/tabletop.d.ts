// Type declarations of the Tabletop browser module, shaped like @azure/data-tables 13.3.2.

/** An EDM type name, as in { value, type } objects. */
export type EdmTypes = "Binary" | "Boolean" | "DateTime" | "Double" | "Guid" | "Int32" | "Int64" | "String";

/** Edm is a value with an explicit type, for the types JavaScript cannot tell. */
export interface Edm<T extends EdmTypes> {
  value: T extends "Binary" ? string | Uint8Array : T extends "Boolean" ? boolean : T extends "Double" | "Int32" ? number | string : string;
  type: T;
}

/** A property value as written. */
export type EntityValue = string | number | boolean | bigint | Date | Uint8Array | Edm<EdmTypes> | null | undefined;

/** TableEntity is an entity to write: its keys and custom properties. */
export type TableEntity<T extends object = Record<string, unknown>> = T & { partitionKey: string; rowKey: string };

/** TableEntityResult is an entity as read: with etag and timestamp (absent if not selected). */
export type TableEntityResult<T> = T & { etag: string; partitionKey?: string; rowKey?: string; timestamp?: string };

/** UpdateMode chooses between merging properties into an entity and replacing them. */
export type UpdateMode = "Merge" | "Replace";

/** TransactionAction is one action of submitTransaction. */
export type TransactionAction =
  | ["create" | "delete", TableEntity]
  | ["update", TableEntity, UpdateMode?, { etag?: string }?]
  | ["upsert", TableEntity, UpdateMode?];

export interface TableTransactionResponse {
  status: number;
  subResponses: { status: number; rowKey: string; etag?: string }[];
  getResponseForEntity(rowKey: string): { status: number; rowKey: string; etag?: string } | undefined;
}

/** A page of results: an array with the token of the next page, undefined on the last. */
export type Page<T> = T[] & { continuationToken?: string };

export interface PageSettings {
  maxPageSize?: number;
  continuationToken?: string;
}

export interface PagedAsyncIterableIterator<T> extends AsyncIterableIterator<T> {
  byPage(settings?: PageSettings): AsyncIterableIterator<Page<T>>;
}

export interface TableItem {
  name: string;
}

export interface ListTableItemsOptions {
  queryOptions?: { filter?: string; top?: number };
}

export interface ListTableEntitiesOptions {
  queryOptions?: { filter?: string; select?: string[]; top?: number };
  disableTypeConversion?: boolean;
}

export interface GetTableEntityOptions {
  queryOptions?: { select?: string[] };
  disableTypeConversion?: boolean;
}

export interface StoreOptions {
  /** Keep the store in memory only; nothing is written to IndexedDB. */
  inMemory?: boolean;
  /** "strict" (default): a write resolves once flushed to disk; "relaxed": once the OS has it. */
  durability?: "strict" | "relaxed" | "default";
  /** What to do when another tab holds the store: fail (default, after lockTimeout ms), wait, or take it over. */
  lock?: "fail" | "wait" | "steal";
  lockTimeout?: number;
  /** Where to find the engine, if not in dist/ beside the module. */
  wasmUrl?: string | URL;
  wasmExecUrl?: string | URL;
}

/** Store is an open database. */
export declare class Store {
  readonly name: string;
  readonly inMemory: boolean;
  compact(): Promise<void>;
  close(): Promise<void>;
}

/** openStore opens (creating if needed) a store: persistent in IndexedDB unless inMemory. */
export declare function openStore(name: string, options?: StoreOptions): Promise<Store>;
/** deleteStore deletes a persistent store's database. */
export declare function deleteStore(name: string): Promise<void>;
/** closeStores closes every store that clients opened by name. */
export declare function closeStores(): Promise<void>;
/** loadEngine loads the wasm engine ahead of the first call. */
export declare function loadEngine(options?: Pick<StoreOptions, "wasmUrl" | "wasmExecUrl">): Promise<unknown>;

/** A Store, a store name (persistent), or "memory:name" (in memory), where the SDK takes a URL. */
export type StoreTarget = Store | string;

export declare class TableServiceClient {
  constructor(store: StoreTarget);
  static fromConnectionString(store: StoreTarget): TableServiceClient;
  createTable(name: string): Promise<void>;
  deleteTable(name: string): Promise<void>;
  listTables(options?: ListTableItemsOptions): PagedAsyncIterableIterator<TableItem>;
}

export declare class TableClient {
  constructor(store: StoreTarget, tableName: string);
  static fromConnectionString(store: StoreTarget, tableName: string): TableClient;
  readonly tableName: string;
  createTable(): Promise<void>;
  deleteTable(): Promise<void>;
  createEntity<T extends object>(entity: TableEntity<T>): Promise<{ etag: string }>;
  getEntity<T extends object = Record<string, unknown>>(partitionKey: string, rowKey: string, options?: GetTableEntityOptions): Promise<TableEntityResult<T>>;
  listEntities<T extends object = Record<string, unknown>>(options?: ListTableEntitiesOptions): PagedAsyncIterableIterator<TableEntityResult<T>>;
  upsertEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode): Promise<{ etag: string }>;
  updateEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode, options?: { etag?: string }): Promise<{ etag: string }>;
  deleteEntity(partitionKey: string, rowKey: string, options?: { etag?: string }): Promise<{}>;
  submitTransaction(actions: TransactionAction[]): Promise<TableTransactionResponse>;
}

export declare class TableTransaction {
  constructor(actions?: TransactionAction[]);
  actions: TransactionAction[];
  createEntity<T extends object>(entity: TableEntity<T>): void;
  deleteEntity(partitionKey: string, rowKey: string): void;
  updateEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode, options?: { etag?: string }): void;
  upsertEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode): void;
}

/** RestError is what every failing call throws: code is Azure's error code, statusCode its HTTP status. */
export declare class RestError extends Error {
  name: "RestError";
  code?: string;
  statusCode?: number;
  /** The failing action of a transaction. */
  index?: number;
  details: { odataError: { code?: string; message: { lang: string; value: string } } };
}

export declare function isRestError(e: unknown): e is RestError;

/** odata writes interpolated values as escaped OData literals. */
export declare function odata(strings: TemplateStringsArray, ...values: unknown[]): string;
