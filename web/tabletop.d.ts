// Type declarations of the Tabletop browser module, shaped like @azure/data-tables 13.3.2:
// a program written for the SDK type-checks after changing its import and the constructor
// (test/types/sdk-sample.ts is such a program).

/** An EDM type name, as in { value, type } objects. */
export type EdmTypes = "Binary" | "Boolean" | "DateTime" | "Double" | "Guid" | "Int32" | "Int64" | "String";

/** Edm is a value with an explicit type, for the types JavaScript cannot tell. */
export interface Edm<T extends EdmTypes> {
  value: T extends "Binary" ? string | Uint8Array : T extends "Boolean" ? boolean | string : T extends "Double" | "Int32" ? number | string : T extends "Int64" ? string | bigint | number : T extends "DateTime" ? string | Date : string;
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

/** An AbortSignal, or anything shaped like one. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: (this: AbortSignalLike, ev: any) => any, options?: any): void;
  removeEventListener(type: "abort", listener: (this: AbortSignalLike, ev: any) => any, options?: any): void;
}

/** OperationOptions are accepted by every call: abortSignal is honoured, the rest accepted. */
export interface OperationOptions {
  abortSignal?: AbortSignalLike;
  requestOptions?: { timeout?: number; customHeaders?: Record<string, string>; [k: string]: unknown };
  tracingOptions?: Record<string, unknown>;
  onResponse?: (...args: any[]) => void;
}

/** The headers the SDK returns from every write. */
export interface ResponseHeaders {
  date?: Date;
  requestId?: string;
  version?: string;
  clientRequestId?: string;
}

/** The result of an entity write: the new etag and the response headers. */
export interface EntityWriteResponse extends ResponseHeaders {
  etag: string;
}
export type CreateTableEntityResponse = EntityWriteResponse;
export type UpdateEntityResponse = EntityWriteResponse;
export type UpsertEntityResponse = EntityWriteResponse;
export type DeleteTableEntityResponse = ResponseHeaders;

export interface UpdateTableEntityOptions extends OperationOptions {
  etag?: string;
}
export interface DeleteTableEntityOptions extends OperationOptions {
  etag?: string;
}

/** TransactionAction is one action of submitTransaction. */
export type TransactionAction =
  | ["create", TableEntity]
  | ["delete", TableEntity, { etag?: string }?]
  | ["update", TableEntity, UpdateMode?, { etag?: string }?]
  | ["update", TableEntity, { etag?: string }]
  | ["upsert", TableEntity, UpdateMode?];

export interface TableTransactionEntityResponse {
  status: number;
  rowKey: string;
  etag?: string;
}

export interface TableTransactionResponse extends ResponseHeaders {
  status: number;
  subResponses: TableTransactionEntityResponse[];
  getResponseForEntity(rowKey: string): TableTransactionEntityResponse | undefined;
}

/**
 * A page of results: an array with the token of the next page, undefined on the last; an
 * entity page's plan names how it was read ("index(Price) eq", "table scan", ...).
 */
export type Page<T> = T[] & { continuationToken?: string; plan?: string };

export interface PageSettings {
  maxPageSize?: number;
  continuationToken?: string;
}

export interface PagedAsyncIterableIterator<T, TPage = Page<T>> extends AsyncIterableIterator<T> {
  byPage(settings?: PageSettings): AsyncIterableIterator<TPage>;
}

export interface TableItem {
  name: string;
}

export interface ListTableItemsOptions extends OperationOptions {
  queryOptions?: { filter?: string; top?: number };
}

export interface TableEntityQueryOptions {
  filter?: string;
  select?: string[];
  top?: number;
}

export interface ListTableEntitiesOptions extends OperationOptions {
  queryOptions?: TableEntityQueryOptions;
  disableTypeConversion?: boolean;
}

export interface GetTableEntityOptions extends OperationOptions {
  queryOptions?: { select?: string[] };
  disableTypeConversion?: boolean;
}

/** AccessPolicy is a stored access policy's window and permissions. */
export interface AccessPolicy {
  start?: Date;
  expiry?: Date;
  permission?: string;
}

/** TableSignedIdentifier names a stored access policy. */
export interface SignedIdentifier {
  id: string;
  accessPolicy?: AccessPolicy;
}
export type TableSignedIdentifier = SignedIdentifier;

export type GetAccessPolicyResponse = SignedIdentifier[] & ResponseHeaders & { signedIdentifiers: SignedIdentifier[] };
export type SetAccessPolicyResponse = ResponseHeaders;

export interface RetentionPolicy {
  enabled: boolean;
  days?: number;
}
export interface Logging {
  version: string;
  read: boolean;
  write: boolean;
  delete: boolean;
  retentionPolicy: RetentionPolicy;
}
export interface Metrics {
  version?: string;
  enabled: boolean;
  includeAPIs?: boolean;
  retentionPolicy?: RetentionPolicy;
}
export interface CorsRule {
  allowedOrigins: string;
  allowedMethods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  maxAgeInSeconds: number;
}
export interface ServiceProperties {
  logging?: Logging;
  hourMetrics?: Metrics;
  minuteMetrics?: Metrics;
  cors?: CorsRule[];
}
export type GetPropertiesResponse = ServiceProperties & ResponseHeaders;
export type SetPropertiesResponse = ResponseHeaders;
export interface GetStatisticsResponse extends ResponseHeaders {
  geoReplication?: { status: "live" | "bootstrap" | "unavailable"; lastSyncOn: Date };
}

export interface StoreOptions {
  /** Keep the store in memory only; nothing is written to IndexedDB. */
  inMemory?: boolean;
  /** "strict" (default): a write resolves once flushed to disk; "relaxed": once the OS has it. */
  durability?: "strict" | "relaxed" | "default";
  /**
   * "shared" (default): every tab of the origin uses the store at once. An exclusive lock
   * keeps the other tabs out: "fail" (StoreLocked after lockTimeout ms while another tab has
   * it open), "wait" until they close it, or "steal" it from them.
   */
  lock?: "shared" | "fail" | "wait" | "steal";
  /** How long to wait for the lock before failing with StoreLocked (ms, default 3000). */
  lockTimeout?: number;
  /** Ask the browser to keep this origin's storage under storage pressure (navigator.storage.persist()). */
  persist?: boolean;
  /**
   * About how many bytes of stored records a tab keeps loaded in its engine (default 32
   * MiB); past it, the ranges loaded longest ago are dropped, and read from IndexedDB
   * again when a call needs them. A persistent store's only.
   */
  cacheBytes?: number;
  /** Where to find the engine, if not in dist/ beside the module. */
  wasmUrl?: string | URL;
  wasmExecUrl?: string | URL;
  /** Keep the engine's wasm in Cache Storage, for a faster start next time (default true; dist/tabletop.js only). */
  wasmCache?: boolean;
}

/** Store is an open database. */
export declare class Store {
  readonly name: string;
  readonly inMemory: boolean;
  /** Whether the browser agreed to persist the origin's storage, when opened with persist: true. */
  readonly persisted?: boolean;
  compact(): Promise<void>;
  /** Bring this tab's copy up to every write committed in any tab (writes do so by themselves; reads answer from what this tab has received). */
  sync(): Promise<void>;
  close(): Promise<void>;
  /**
   * Listen to the errors of work the store does by itself, which no call awaits: an
   * automatic compaction that failed (code "QuotaExceeded": tried again after a later
   * commit; "DataCorrupted": every later write fails with it), the catch-up after opening.
   */
  on(event: "error", listener: (error: Error & { code?: string; statusCode?: number }) => void): this;
  off(event: "error", listener: (error: Error & { code?: string; statusCode?: number }) => void): this;
}

/** openStore opens (creating if needed) a store: persistent in IndexedDB unless inMemory. */
export declare function openStore(name: string, options?: StoreOptions): Promise<Store>;
/** deleteStore deletes a persistent store's database. */
export declare function deleteStore(name: string): Promise<void>;
/** closeStores closes every store that clients opened by name. */
export declare function closeStores(): Promise<void>;
/** loadEngine loads the wasm engine ahead of the first call. */
export declare function loadEngine(options?: Pick<StoreOptions, "wasmUrl" | "wasmExecUrl" | "wasmCache">): Promise<unknown>;

/** A Store, a store name (persistent), or "memory:name" (in memory), where the SDK takes a URL. A connection string or URL is an error. */
export type StoreTarget = Store | string;

/** A dump in the Tabletop dump format: text, or bytes (gzip is detected). */
export type Dump = string | Uint8Array | ArrayBuffer | Blob;
export interface ExportOptions extends OperationOptions {
  /** Compress the dump with gzip: the result is then a Uint8Array. */
  gzip?: boolean;
}
export interface ImportResult {
  tables: string[];
  entities: number;
}

/** Credentials are accepted where the SDK takes them, and ignored: a local store needs none. */
export type TableCredential = NamedKeyCredential | SASCredential | { getToken(...args: any[]): Promise<any> };
export interface TableServiceClientOptions extends Record<string, unknown> {}

export declare class TableServiceClient {
  constructor(store: StoreTarget, credential?: TableCredential | TableServiceClientOptions, options?: TableServiceClientOptions);
  static fromConnectionString(store: StoreTarget, options?: TableServiceClientOptions): TableServiceClient;
  /** "tabletop:{store name}", where the SDK has the account URL. */
  readonly url: string;
  createTable(name: string, options?: OperationOptions): Promise<void>;
  deleteTable(name: string, options?: OperationOptions): Promise<void>;
  listTables(options?: ListTableItemsOptions): PagedAsyncIterableIterator<TableItem>;
  getProperties(options?: OperationOptions): Promise<GetPropertiesResponse>;
  setProperties(properties: ServiceProperties, options?: OperationOptions): Promise<SetPropertiesResponse>;
  getStatistics(options?: OperationOptions): Promise<GetStatisticsResponse>;
  /** exportStore returns every table in the Tabletop dump format. */
  exportStore(options?: ExportOptions & { gzip?: false }): Promise<string>;
  exportStore(options: ExportOptions & { gzip: true }): Promise<Uint8Array>;
  /** importStore writes a dump's tables and entities, atomically. */
  importStore(dump: Dump, options?: OperationOptions): Promise<ImportResult>;
}

export declare class TableClient {
  constructor(store: StoreTarget, tableName: string, credential?: TableCredential | TableServiceClientOptions, options?: TableServiceClientOptions);
  static fromConnectionString(store: StoreTarget, tableName: string, options?: TableServiceClientOptions): TableClient;
  readonly tableName: string;
  /** "tabletop:{store name}", where the SDK has the account URL. */
  readonly url: string;
  createTable(options?: OperationOptions): Promise<void>;
  deleteTable(options?: OperationOptions): Promise<void>;
  createEntity<T extends object>(entity: TableEntity<T>, options?: OperationOptions): Promise<CreateTableEntityResponse>;
  getEntity<T extends object = Record<string, unknown>>(partitionKey: string, rowKey: string, options?: GetTableEntityOptions): Promise<TableEntityResult<T>>;
  listEntities<T extends object = Record<string, unknown>>(options?: ListTableEntitiesOptions): PagedAsyncIterableIterator<TableEntityResult<T>>;
  upsertEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode, options?: OperationOptions): Promise<UpsertEntityResponse>;
  updateEntity<T extends object>(entity: TableEntity<T>, mode?: UpdateMode, options?: UpdateTableEntityOptions): Promise<UpdateEntityResponse>;
  deleteEntity(partitionKey: string, rowKey: string, options?: DeleteTableEntityOptions): Promise<DeleteTableEntityResponse>;
  submitTransaction(actions: TransactionAction[], options?: OperationOptions): Promise<TableTransactionResponse>;
  getAccessPolicy(options?: OperationOptions): Promise<GetAccessPolicyResponse>;
  setAccessPolicy(tableAcl: SignedIdentifier[], options?: OperationOptions): Promise<SetAccessPolicyResponse>;
  /** exportTable returns this table in the Tabletop dump format. */
  exportTable(options?: ExportOptions & { gzip?: false }): Promise<string>;
  exportTable(options: ExportOptions & { gzip: true }): Promise<Uint8Array>;
  /** importTable writes a dump into this table, whatever table its header names. */
  importTable(dump: Dump, options?: OperationOptions): Promise<ImportResult>;
  /** createIndex declares and builds a secondary index on a custom property (Tabletop's extension). */
  createIndex(property: string, options?: OperationOptions): Promise<void>;
  /** dropIndex removes the index on property; ResourceNotFound if there is none. */
  dropIndex(property: string, options?: OperationOptions): Promise<void>;
  /** listIndexes returns the indexed properties, in ordinal order. */
  listIndexes(options?: OperationOptions): Promise<string[]>;
  /** on("change") calls listener with each change of this table, from this tab and every other. */
  on(event: "change", listener: (change: TableChange) => void, options?: { filter?: ChangeFilter }): this;
  /** off removes a listener that on added. */
  off(event: "change", listener: (change: TableChange) => void): this;
  /** changes iterates this table's changes from now on, until the loop ends or abortSignal aborts. */
  changes(options?: { filter?: ChangeFilter; abortSignal?: AbortSignalLike }): AsyncIterableIterator<TableChange>;
}

export declare class TableTransaction {
  constructor(actions?: TransactionAction[]);
  actions: TransactionAction[];
  createEntity<T extends object>(entity: TableEntity<T>): void;
  deleteEntity(partitionKey: string, rowKey: string, options?: { etag?: string }): void;
  updateEntity<T extends object>(entity: TableEntity<T>, options?: { etag?: string }): void;
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
  details: { errorCode?: string; odataError: { code?: string; message: { lang: string; value: string } } };
  /** The response Azure would have sent. */
  response?: { status?: number; headers: { get(name: string): string | undefined; has(name: string): boolean }; bodyAsText?: string };
  request?: unknown;
}

export declare function isRestError(e: unknown): e is RestError;

/** odata writes interpolated values as escaped OData literals. */
export declare function odata(strings: TemplateStringsArray, ...values: unknown[]): string;

/** NamedKeyCredential is an account name and key. */
export interface NamedKeyCredential {
  readonly name: string;
  readonly key: string;
}
/** SASCredential is a shared access signature. */
export interface SASCredential {
  readonly signature: string;
}

export declare class AzureNamedKeyCredential implements NamedKeyCredential {
  constructor(name: string, key: string);
  readonly name: string;
  readonly key: string;
  update(newName: string, newKey: string): void;
}

export declare class AzureSASCredential implements SASCredential {
  constructor(signature: string);
  readonly signature: string;
  update(newSignature: string): void;
}

export interface TableSasPermissions {
  query?: boolean;
  add?: boolean;
  update?: boolean;
  delete?: boolean;
}
export interface SasIPRange {
  start: string;
  end?: string;
}
export type SasProtocol = "https" | "https,http";
export interface TableSasSignatureValues {
  permissions?: TableSasPermissions;
  startsOn?: Date;
  expiresOn?: Date;
  ipRange?: SasIPRange;
  protocol?: SasProtocol;
  version?: string;
  identifier?: string;
  startPartitionKey?: string;
  startRowKey?: string;
  endPartitionKey?: string;
  endRowKey?: string;
}
export interface AccountSasPermissions {
  query?: boolean;
  write?: boolean;
  delete?: boolean;
  list?: boolean;
  add?: boolean;
  update?: boolean;
}
export interface AccountSasOptions {
  permissions?: AccountSasPermissions;
  resourceTypes?: string;
  services?: { blob?: boolean; file?: boolean; queue?: boolean; table?: boolean };
  startsOn?: Date;
  expiresOn?: Date;
  ipRange?: SasIPRange;
  protocol?: SasProtocol;
  version?: string;
}

/** generateTableSas returns a table service SAS token (without "?"), signed with the credential's key. */
export declare function generateTableSas(tableName: string, credential: NamedKeyCredential, options?: TableSasSignatureValues): string;
/** generateAccountSas returns an account SAS token for the Table service (without "?"). */
export declare function generateAccountSas(credential: NamedKeyCredential, options?: AccountSasOptions): string;

/** TableChange is one committed, durable change of a table. */
export interface TableChange {
  table: string;
  kind: "create" | "upsertMerge" | "upsertReplace" | "updateMerge" | "updateReplace" | "delete" | "createTable" | "deleteTable" | "setAccessPolicy" | "import" | "reset";
  partitionKey?: string;
  rowKey?: string;
  etag?: string;
  /** true for a change a sync pull (or a conflict resolved for the server) brought. */
  remote: boolean;
}
/** A change filter: a function of the change, or an OData filter the entity must match after it (deletions always pass). */
export type ChangeFilter = string | ((change: TableChange) => boolean);

/** Observer of a live query, as in RxJS. */
export interface LiveObserver<T> {
  next?(value: T): void;
  error?(error: unknown): void;
  complete?(): void;
}
export interface LiveSubscription {
  unsubscribe(): void;
  readonly closed: boolean;
}
export interface LiveObservable<T> {
  subscribe(observer?: LiveObserver<T> | ((value: T) => void), error?: (error: unknown) => void, complete?: () => void): LiveSubscription;
}
/** liveQuery runs querier, and again whenever a change could alter its answer; an async iterable answer is collected into an array. */
export declare function liveQuery<T>(querier: () => AsyncIterable<T>): LiveObservable<T[]>;
export declare function liveQuery<T>(querier: () => Promise<T> | T): LiveObservable<T>;

export interface SyncConflict {
  table: string;
  partitionKey: string;
  rowKey: string;
  /** The Azure code of the push that failed: UpdateConditionNotSatisfied, EntityAlreadyExists or ResourceNotFound. */
  code: string;
  statusCode: number;
  /** The local version (null: deleted locally) and the server's (null: none). */
  local: TableEntityResult<Record<string, unknown>> | null;
  remote: TableEntityResult<Record<string, unknown>> | null;
}
export interface SyncStatus {
  online?: boolean;
  syncing: boolean;
  /** Local changes not pushed yet, exact after every local write (offline too) and every push; known once tracked. */
  pending?: number;
  lastSync?: Date;
  /** The last run's failure; remoteLost: the sync stopped because the remote table may be lost (see TableSyncOptions.onRemoteLost). */
  error: { code: string; statusCode?: number; message: string; remoteLost?: boolean } | null;
  /** How pulls read the server: its change feed, or the Timestamp fallback (Azure, Azurite). */
  pull?: "changes" | "timestamp";
}
export interface SyncResult {
  pushed: number;
  pulled: number;
  conflicts: number;
}
export interface TableSyncOptions {
  /** The remote account endpoint, e.g. "https://acct.table.core.windows.net" or "http://127.0.0.1:10002/devstoreaccount1" (a SAS may follow "?"). */
  url: string;
  /** The remote table; the local table's name by default. */
  table?: string;
  credential?: NamedKeyCredential | SASCredential;
  /** Decides a conflict: "remote" (the default), "local", or the entity to keep (a merge). */
  resolve?(conflict: SyncConflict): "remote" | "local" | Record<string, unknown> | Promise<"remote" | "local" | Record<string, unknown>>;
  /** Replicate only PartitionKeys in [start, end). */
  partitionKeyRange?: { start?: string; end?: string };
  /** Without the change feed: ms between key reconciliations (0: every sync). */
  reconcileInterval?: number;
  /** Entities per pull request, 1 to 1000 (default 1000). */
  pageSize?: number;
  fetch?: typeof fetch;
  /** The WebSocket constructor for live sync's sockets, where the endpoint offers them (globalThis.WebSocket by default; null: held requests only). */
  WebSocket?: typeof WebSocket | null;
  /**
   * What to do when the remote table may be lost: missing (TableNotFound), deleted or created
   * again (TableReplaced), on a server whose data was replaced (CheckpointFromAnotherStore), or
   * emptied where there is no change feed (RemoteTableEmpty). "stop" (the default): every sync
   * fails with an Error of that code and remoteLost: true, keeping every local entity and
   * queued change, until the application decides; "push": push every local entity to the
   * remote table (created if missing); "adopt": take the remote table (created if missing)
   * as it is, deleting the local entities it lacks and dropping queued changes.
   */
  onRemoteLost?: RemoteLostDecision;
}
export type RemoteLostDecision = "stop" | "push" | "adopt";
/** TableSync replicates a local table with a remote Azure Table endpoint's table. */
export declare class TableSync {
  constructor(client: TableClient, options: TableSyncOptions);
  readonly status: SyncStatus;
  /** track creates the local table if needed and queues every local change of it for the push. */
  track(): Promise<void>;
  /** sync pushes the outbox, then pulls; reconcile: true also compares every key with the server; onRemoteLost decides for this run. */
  sync(options?: { reconcile?: boolean; onRemoteLost?: RemoteLostDecision }): Promise<SyncResult>;
  /**
   * start syncs now, after local changes, as soon as the remote table changes where the
   * endpoint can tell (live, the default: a change feed request held open by Tabletop's
   * native server), else every interval ms, and when back online, with backoff on failure.
   */
  start(options?: { interval?: number; debounce?: number; live?: boolean }): this;
  /**
   * stop ends start, and the updates of status.pending after local writes until the next
   * track or sync. It resolves when a sync in flight has finished, whatever its outcome.
   */
  stop(): Promise<void>;
  on(event: "status", listener: (status: SyncStatus) => void): this;
  on(event: "conflict", listener: (conflict: SyncConflict & { resolution: "remote" | "local" | "merge" }) => void): this;
  on(event: "progress", listener: (progress: SyncResult & { phase: "push" | "pull" }) => void): this;
  on(event: "error", listener: (error: Error & { code?: string; statusCode?: number; remoteLost?: boolean }) => void): this;
  off(event: string, listener: (...args: any[]) => void): this;
}
/** listRemoteTables lists the tables of a remote endpoint (the account URL), e.g. to choose one to sync. */
export declare function listRemoteTables(url: string, options?: { credential?: NamedKeyCredential | SASCredential; fetch?: typeof fetch }): Promise<string[]>;

/** The module's version (web/package.json's). */
export declare const version: string;
