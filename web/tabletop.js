// Tabletop in the browser: Azure Table storage's data model and API on a local store,
// kept in IndexedDB. The API follows @azure/data-tables, so that code written for Azure
// ports by changing where the clients come from:
//
//   import { TableClient, odata } from "./tabletop.js";   // was "@azure/data-tables"
//   const client = new TableClient("mydb", "people");      // was (url, "people", credential)
//
// See README.md for persistence, the second-tab behaviour and the size of the engine.

export { openStore, deleteStore, closeStores, Store } from "./src/store.js";
export { TableServiceClient, TableClient } from "./src/clients.js";
export { TableTransaction } from "./src/transaction.js";
export { RestError, isRestError } from "./src/errors.js";
export { odata } from "./src/odata.js";
export { loadEngine } from "./src/engine.js";
export { liveQuery } from "./src/live.js";
export { version } from "./src/version.js";
export { TableSync } from "./src/sync.js";
export { listRemoteTables } from "./src/sync-rest.js";
export { AzureNamedKeyCredential, AzureSASCredential, generateTableSas, generateAccountSas } from "./src/sas.js";
