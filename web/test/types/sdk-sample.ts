// A program written the way Microsoft's @azure/data-tables documentation and samples show,
// with only the import and the constructors changed for Tabletop (marked "Tabletop:").
// `make test` type-checks it against tabletop.d.ts (tsc --noEmit -p test/types), and
// test/sdk-sample.test.js runs it.
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  generateAccountSas,
  generateTableSas,
  odata,
  RestError,
  TableClient,
  TableEntity,
  TableEntityResult,
  TableServiceClient,
  TableTransaction,
  TransactionAction,
} from "../../tabletop.js"; // Tabletop: was "@azure/data-tables"

interface Product {
  partitionKey: string;
  rowKey: string;
  name: string;
  price: number;
  quantity?: number;
}

export async function main(store: string): Promise<string[]> {
  const log: string[] = [];
  const account = "devstoreaccount1";
  const accountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  const credential = new AzureNamedKeyCredential(account, accountKey);
  const tableName = `products${Date.now() % 100000}`;

  // Tabletop: was new TableServiceClient(`https://${account}.table.core.windows.net`, credential)
  const serviceClient = new TableServiceClient(store, credential);
  // Tabletop: was new TableClient(`https://${account}.table.core.windows.net`, tableName, credential)
  const client = new TableClient(store, tableName, credential);
  log.push(`url ${serviceClient.url} ${client.url}`);

  await serviceClient.createTable(tableName);
  for await (const table of serviceClient.listTables()) log.push(`table ${table.name}`);
  const tablesByPage = serviceClient.listTables().byPage({ maxPageSize: 10 });
  for await (const page of tablesByPage) log.push(`page of ${page.length} tables`);

  const entity: TableEntity<Product> = { partitionKey: "P1", rowKey: "R1", name: "Marker", price: 5.0 };
  const created = await client.createEntity(entity);
  log.push(`created etag=${!!created.etag} date=${created.date instanceof Date} version=${created.version} requestId=${!!created.requestId}`);

  const fetched: TableEntityResult<Product> = await client.getEntity<Product>("P1", "R1");
  log.push(`fetched ${fetched.name} ${fetched.price} ${fetched.etag ? "etag" : ""}`);

  fetched.quantity = 3;
  await client.updateEntity(fetched, "Replace", { etag: fetched.etag });
  await client.upsertEntity({ partitionKey: "P1", rowKey: "R2", name: "Pen", price: 1.25 }, "Merge");

  const priceFilter = 2;
  const entities = client.listEntities<Product>({ queryOptions: { filter: odata`price ge ${priceFilter} and PartitionKey eq ${"P1"}`, select: ["name", "price"] } });
  for await (const e of entities) log.push(`listed ${e.name} ${e.price}`);

  const transaction = new TableTransaction();
  transaction.createEntity({ partitionKey: "P1", rowKey: "R3", name: "Ruler", price: 3 });
  transaction.updateEntity({ partitionKey: "P1", rowKey: "R2", name: "Pen", price: 1.5 }, { etag: "*" });
  transaction.upsertEntity({ partitionKey: "P1", rowKey: "R4", name: "Tape", price: 2 }, "Replace");
  transaction.deleteEntity("P1", "R1");
  const result = await client.submitTransaction(transaction.actions);
  log.push(`transaction ${result.status} ${result.subResponses.length}`);
  const actions: TransactionAction[] = [["upsert", { partitionKey: "P1", rowKey: "R5", price: 9 }]];
  await client.submitTransaction(actions);

  await client.setAccessPolicy([{ id: "read-only", accessPolicy: { permission: "r", start: new Date("2021-01-01T00:00:00Z"), expiry: new Date("2031-01-01T00:00:00Z") } }]);
  const acl = await client.getAccessPolicy();
  log.push(`acl ${acl.map((s) => `${s.id}:${s.accessPolicy?.permission}`).join(",")}`);

  const properties = await serviceClient.getProperties();
  await serviceClient.setProperties({ ...properties, cors: [{ allowedOrigins: "*", allowedMethods: "GET", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 }] });
  log.push(`cors ${(await serviceClient.getProperties()).cors?.length}`);
  const stats = await serviceClient.getStatistics();
  log.push(`stats ${stats.geoReplication?.status}`);

  const tableSas = generateTableSas(tableName, credential, { permissions: { query: true, add: true }, expiresOn: new Date("2031-01-01T00:00:00Z") });
  const accountSas = generateAccountSas(credential, { permissions: { query: true, list: true }, expiresOn: new Date("2031-01-01T00:00:00Z") });
  const sasCredential = new AzureSASCredential(tableSas);
  log.push(`sas ${tableSas.includes("sig=")} ${accountSas.includes("sig=")} ${sasCredential.signature === tableSas}`);

  const controller = new AbortController();
  controller.abort();
  try {
    await client.getEntity("P1", "R3", { abortSignal: controller.signal });
  } catch (e) {
    log.push(`aborted ${(e as Error).name}`);
  }

  try {
    await client.createEntity({ partitionKey: "P1", rowKey: "R3", name: "again", price: 0 });
  } catch (e) {
    const error = e as RestError;
    log.push(`error ${error.statusCode} ${(error.details as { errorCode?: string } | undefined)?.errorCode} ${error.response?.status}`);
  }

  await client.deleteEntity("P1", "R3");
  await serviceClient.deleteTable(tableName);
  return log;
}
