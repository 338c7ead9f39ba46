// Starts the native server for a test file: builds the tabletop command (./worker/tabletop) once into a temporary
// directory, runs it on a free loopback port with an in-memory store, and stops it.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const accountName = "devstoreaccount1";
export const accountKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/**
 * startServer starts the server (the binary TABLETOP_BIN names, as test/run.mjs sets it,
 * or one built now); it resolves to { url, endpoint, connectionString, stop }, where
 * endpoint is the path-style service URL.
 */
export async function startServer(extraArgs = []) {
  // TABLETOP_URL runs the suite against a server already running there (the edge runtime:
  // worker/edge/test-sdk.mjs); the -accounts and other extraArgs cannot apply to it.
  if (process.env.TABLETOP_URL) return remoteServer(process.env.TABLETOP_URL.replace(/\/$/, ""));
  const dir = mkdtempSync(join(tmpdir(), "tabletop-test-"));
  let bin = process.env.TABLETOP_BIN;
  if (!bin) {
    bin = join(dir, "tabletop");
    execFileSync("go", ["build", "-o", bin, "./worker/tabletop"], { cwd: repo, stdio: "inherit" });
  }
  const child = spawn(bin, ["-addr", "127.0.0.1:0", "-data", ":memory:", "-quiet", "-web", join(dir, "noweb"), ...extraArgs], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise((resolve, reject) => {
    const found = {};
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    lines.on("line", (line) => {
      const m = line.match(/^Tabletop listening on (https?:\/\/\S+)$/);
      if (m) found.url = m[1];
      if (line.startsWith("DefaultEndpointsProtocol=")) {
        found.connectionString = line;
        resolve(found);
      }
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { ...info, endpoint: `${info.url}/${accountName}`, stop, child };
}

function remoteServer(url) {
  const connectionString = `DefaultEndpointsProtocol=http;AccountName=${accountName};AccountKey=${accountKey};TableEndpoint=${url}/${accountName};`;
  return { url, connectionString, endpoint: `${url}/${accountName}`, stop: async () => {} };
}

/** uniqueName returns a table name not used before in this process. */
let counter = 0;
export function uniqueName(prefix = "t") {
  counter++;
  return `${prefix}${Date.now().toString(36)}${counter}`.replace(/[^A-Za-z0-9]/g, "");
}

/**
 * errorCode is the Azure error code of a RestError: the JS client puts it in code (batch
 * errors) or in details.errorCode (from x-ms-error-code) and details.odataError (the body).
 */
export function errorCode(err) {
  if (err.details?.errorCode && err.details?.odataError?.code && err.details.errorCode !== err.details.odataError.code) {
    throw new Error(`x-ms-error-code ${err.details.errorCode} differs from odata.error.code ${err.details.odataError.code}`);
  }
  return err.code ?? err.details?.errorCode ?? err.details?.odataError?.code;
}

/** expectCode asserts that promise rejects with a RestError of the status and code. */
export async function expectCode(assert, promise, statusCode, code) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.statusCode, statusCode, `status of ${err.message}`);
    assert.equal(errorCode(err), code, `code of ${err.message}`);
    return true;
  });
}

/** statusOf returns options whose onResponse records the raw HTTP status in box.status. */
export function statusOf(box) {
  return { onResponse: (r) => { box.status = r.status; box.headers = r.headers; } };
}
