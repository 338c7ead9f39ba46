// Shared by the edge tests: SDK clients for a running edge runtime, and temp directories.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TableClient, TableServiceClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { signedHead } from "../src/restcall.mjs";

export const accountName = "devstoreaccount1";
export const accountKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
export const credential = new AzureNamedKeyCredential(accountName, accountKey);
export const clientOptions = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

/** clients returns the service client and a table client factory for the runtime at url. */
export function clients(url) {
  const endpoint = `${url}/${accountName}`;
  return {
    endpoint,
    service: new TableServiceClient(endpoint, credential, clientOptions),
    table: (name) => new TableClient(endpoint, name, credential, clientOptions),
  };
}

/** tempDir makes a directory that cleanup() removes. */
export function tempDir(prefix = "tabletop-edge-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** listAll lists a table's entities with the wire's types kept ({ value, type }). */
export async function listAll(client) {
  const out = [];
  for await (const e of client.listEntities({ disableTypeConversion: true })) out.push(e);
  return out;
}

/** stats reads a Go instance's counters through the debug route. */
export async function stats(url, table = "") {
  const res = await fetch(`${url}/__tabletop/stats/${accountName}${table ? "/" + table : ""}`);
  if (!res.ok) throw new Error(`stats: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * signedAt signs a REST call ({ method, path, query, headers, body }: see restcall.mjs)
 * for the development account and returns its URL, on the runtime at url, and headers.
 */
export async function signedAt(url, call) {
  const head = await signedHead({ account: accountName, key: accountKey, ...call });
  const u = new URL(head.url);
  u.host = new URL(url).host;
  return { url: u, headers: head.headers };
}

/** signedFetch sends the REST call signedAt signs and returns the Response. */
export async function signedFetch(url, call) {
  const { url: u, headers } = await signedAt(url, call);
  return fetch(u, { method: call.method, headers, body: call.body });
}
