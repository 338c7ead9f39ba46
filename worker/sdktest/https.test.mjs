// The JS SDK over HTTPS, with a certificate the test makes (openssl), both with the
// account key and with a token credential (-oauth): what code written for Azure with
// DefaultAzureCredential does. The SDK runs in a child Node that trusts the certificate
// (NODE_EXTRA_CA_CERTS is read at a process's start).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const remote = Boolean(process.env.TABLETOP_URL); // the edge: Cloudflare terminates TLS there

/** certificate makes a self-signed certificate for 127.0.0.1 in dir: { cert, key }. */
function certificate(dir) {
  const cert = join(dir, "cert.pem"), key = join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { cert, key };
}

// client.mjs, run by a child Node: creates a table, writes and reads an entity with the
// credential named by argv[3] ("key" or "token"), and prints what it read.
const client = `
import { TableServiceClient, TableClient, AzureNamedKeyCredential } from "@azure/data-tables";
const [endpoint, kind] = process.argv.slice(2);
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
const now = Math.floor(Date.now() / 1000);
const token = { getToken: async () => ({ token: b64({ alg: "RS256", typ: "JWT" }) + "." +
  b64({ aud: "https://storage.azure.com", iss: "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/", nbf: now - 60, iat: now - 60, exp: now + 3600 }) + ".c2ln",
  expiresOnTimestamp: (now + 3600) * 1000 }) };
const cred = kind === "token" ? token : new AzureNamedKeyCredential("devstoreaccount1", process.env.KEY);
const table = "Https" + kind;
await new TableServiceClient(endpoint, cred).createTable(table);
const t = new TableClient(endpoint, table, cred);
await t.createEntity({ partitionKey: "p", rowKey: "r", via: kind });
console.log((await t.getEntity("p", "r")).via);
`;

test("the JS SDK over HTTPS, with the account key and with a token credential", { skip: remote && "the edge's TLS is Cloudflare's" }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tabletop-https-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const { cert, key } = certificate(dir);
  const server = await startServer(["-cert", cert, "-key", key, "-oauth"]);
  after(() => server.stop());
  assert.match(server.endpoint, /^https:\/\//);
  const script = join(here, `https-client-${process.pid}.mjs`); // beside node_modules, to find the SDK
  writeFileSync(script, client);
  after(() => rmSync(script, { force: true }));
  for (const kind of ["key", "token"]) {
    const out = execFileSync(process.execPath, [script, server.endpoint, kind], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert, KEY: "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==" },
      encoding: "utf8",
    });
    assert.equal(out.trim(), kind);
  }
});

test("a plain HTTP client on the HTTPS port fails at once, saying why", { skip: remote && "the edge's TLS is Cloudflare's" }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tabletop-https-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const { cert, key } = certificate(dir);
  const server = await startServer(["-cert", cert, "-key", key]);
  after(() => server.stop());
  const start = performance.now();
  const res = await fetch(server.endpoint.replace("https:", "http:") + "/Tables");
  assert.equal(res.status, 400);
  assert.match(await res.text(), /speaks HTTPS/);
  assert.ok(performance.now() - start < 1000);
});
