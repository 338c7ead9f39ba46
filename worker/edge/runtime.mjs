// Starts and stops the edge bundle in the local runtime: workerd (the runtime wrangler
// bundles), run directly, offline, on a free loopback port, with its Durable Object storage
// in a directory of our choosing, so a test can stop the runtime and start it again on the
// same state. Run `make worker` (build.sh) first: this serves worker/edge/build/dist.
//
// Not `wrangler dev`: its local front (miniflare) labels body-less answers such as 204
// "Content-Encoding: gzip" when the client accepts gzip, and the Azure SDK then fails to
// decode the empty body of every 204.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import { writeConfig } from "./workerd.mjs";

export const edgeDir = dirname(fileURLToPath(import.meta.url));
export const repoDir = join(edgeDir, "..", "..");
const distDir = join(edgeDir, "build", "dist");
const workerd = join(edgeDir, "node_modules", ".bin", "workerd");

/** freePort returns a loopback port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * DEV_ACCOUNTS is the development account, devstoreaccount1 with its public key, in the
 * form of TABLETOP_ACCOUNTS. The local runtime serves it unless vars say otherwise: a
 * deployment never does (wrangler.toml sets no accounts; see src/entry.mjs).
 */
export const DEV_ACCOUNTS =
  "devstoreaccount1:Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/**
 * startEdge runs the bundle with storage in persistDir and resolves, once it answers, to
 * { url, port, stop, kill, exited, startedAt, readyAt }: stop() ends the runtime and waits
 * for it; kill() SIGKILLs it, as a crash would; exited resolves to workerd's exit code when
 * it ends, however it ends. With user = { module, port }, a second Worker bound to the
 * bundle's RPC entrypoint runs beside it (see writeConfig). dist is the bundle's directory
 * (default worker/edge/build/dist; bench-warm.mjs compares two).
 */
export async function startEdge({ persistDir, port, vars = { TABLETOP_DEBUG: "1" }, v8Flags = [], timeoutMs = 30000, user, dist = distDir } = {}) {
  const distDir = dist;
  if (!existsSync(join(distDir, "entry.js"))) throw new Error(`no ${distDir}: run make worker first`);
  port ??= await freePort();
  mkdirSync(persistDir, { recursive: true });
  const config = writeConfig({ distDir, persistDir, port, vars: { TABLETOP_ACCOUNTS: DEV_ACCOUNTS, ...vars }, v8Flags, user });
  const startedAt = performance.now();
  const child = spawn(workerd, ["serve", config, "--experimental"], { cwd: distDir, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const orphan = () => child.kill("SIGKILL"); // never outlive the process that started it
  process.once("exit", orphan);
  exited.then(() => process.off("exit", orphan));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    }
    rmSync(config, { force: true });
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(config, { force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitListening(url, exited, timeoutMs);
  } catch (err) {
    await stop();
    throw new Error(`${err.message}\n--- workerd output ---\n${log}`);
  }
  return { url, port, pid: child.pid, stop, kill, exited, startedAt, readyAt: performance.now(), log: () => log, clearLog: () => (log = "") };
}

// waitListening polls until the runtime accepts a connection. It asks a path no object
// answers (the entry Worker answers it from the debug route or 404s), so that no Go
// instance starts before the caller's first request.
async function waitListening(url, exited, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error("wrangler dev exited");
    try {
      await fetch(`${url}/__tabletop/ping`, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  throw new Error(`wrangler dev did not answer at ${url} within ${timeoutMs} ms`);
}
