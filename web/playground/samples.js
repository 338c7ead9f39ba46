// Programs written for @azure/data-tables, run as written against the store in this tab:
// the code panel's samples follow Microsoft's documentation of the JS SDK (create a table,
// insert, query, a batch, a SAS). A program's import or require of "@azure/data-tables"
// is served by the module, whose clients take the tab's store where the SDK takes a
// connection string or URL; console.log goes to the panel.

/** SAMPLES are the bundled programs, by name. */
export const SAMPLES = {
  createTable: `import { TableServiceClient } from "@azure/data-tables";

const serviceClient = TableServiceClient.fromConnectionString(connectionString);
await serviceClient.createTable("Orders");
for await (const table of serviceClient.listTables()) console.log("table:", table.name);`,
  insert: `import { TableClient } from "@azure/data-tables";

const client = TableClient.fromConnectionString(connectionString, "Orders");
await client.createTable();
await client.createEntity({ partitionKey: "2026-11", rowKey: "1001", product: "Marker", quantity: 5, price: 2.5 });
await client.upsertEntity({ partitionKey: "2026-11", rowKey: "1002", product: "Pen", quantity: 12, price: 1.2 }, "Replace");
const order = await client.getEntity("2026-11", "1001");
console.log(order.product, order.quantity);`,
  query: `import { TableClient, odata } from "@azure/data-tables";

const client = TableClient.fromConnectionString(connectionString, "Orders");
const entities = client.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${"2026-11"} and quantity ge \${5}\` } });
for await (const entity of entities) console.log(entity.rowKey, entity.product, entity.quantity);`,
  batch: `import { TableClient } from "@azure/data-tables";

const client = TableClient.fromConnectionString(connectionString, "Orders");
await client.createTable();
const actions = [
  ["create", { partitionKey: "2026-12", rowKey: "2001", product: "Stapler", quantity: 1 }],
  ["create", { partitionKey: "2026-12", rowKey: "2002", product: "Paper", quantity: 500 }],
  ["upsert", { partitionKey: "2026-12", rowKey: "2003", product: "Tape", quantity: 3 }],
];
const result = await client.submitTransaction(actions);
console.log("status of each:", result.subResponses.map((r) => r.status).join(", "));`,
  sas: `import { generateTableSas, AzureNamedKeyCredential } from "@azure/data-tables";

const credential = new AzureNamedKeyCredential("devstoreaccount1", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
const sas = generateTableSas("Orders", credential, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3) });
console.log("a read-only SAS for Orders:", sas.split("&").map((p) => p.split("=")[0]).join(", "));`,
};

/** SDK_IMPORT matches a program's import or require of @azure/data-tables. */
const SDK_IMPORT = /^\s*(?:import\s[^;]*?from\s*["']@azure\/data-tables["']|(?:const|let|var)\s[^;]*?=\s*require\(\s*["']@azure\/data-tables["']\s*\))\s*;?\s*$/gm;

/**
 * runSample runs program with the module T over the tab's store; log receives what it
 * prints. The store is the program's connectionString.
 */
export async function runSample(program, T, store, log) {
  const body = program.replace(SDK_IMPORT, "");
  const names = ["TableClient", "TableServiceClient", "TableTransaction", "odata", "AzureNamedKeyCredential", "AzureSASCredential", "generateTableSas", "generateAccountSas", "RestError", "connectionString", "console"];
  const values = [T.TableClient, T.TableServiceClient, T.TableTransaction, T.odata, T.AzureNamedKeyCredential, T.AzureSASCredential, T.generateTableSas, T.generateAccountSas, T.RestError, store,
    { log: (...a) => log(a.map(String).join(" ")), error: (...a) => log(a.map(String).join(" ")), info: (...a) => log(a.map(String).join(" ")) }];
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  return new AsyncFunction(...names, body)(...values);
}
