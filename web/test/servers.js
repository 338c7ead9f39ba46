// Servers for the sync tests: the native server (worker/tabletop, built once per process
// into a temporary directory), listening on a free 127.0.0.1 port with its data in memory.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let binary;

/** DEV_KEY is the development account's well-known key. */
export const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** nativeBinary builds the tabletop command (worker/tabletop) once and returns its path. */
export function nativeBinary() {
  binary ??= (() => {
    const out = join(mkdtempSync(join(tmpdir(), "tabletop-native-")), "tabletop");
    execFileSync("go", ["build", "-o", out, "./worker/tabletop"], { cwd: repo, stdio: "inherit" });
    return out;
  })();
  return binary;
}

/**
 * startNative starts the native server with extra flags and resolves with { origin,
 * url (the account endpoint), stop, kill }. It stops by itself when the process exits.
 */
export async function startNative(flags = []) {
  const proc = spawn(nativeBinary(), ["-addr", "127.0.0.1:0", "-data", ":memory:", "-quiet", ...flags], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise((r) => proc.on("exit", r));
  const origin = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/Tabletop listening on (http:\/\/[^\s/]+)/);
      if (m) resolve(m[1]);
    });
    proc.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  process.once("exit", () => proc.kill("SIGKILL"));
  const stop = async () => (proc.kill("SIGTERM"), await exited);
  return { origin, url: `${origin}/devstoreaccount1`, stop, proc };
}

/** freePort finds a free port of 127.0.0.1. */
async function freePort() {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * startAzurite starts Azurite's Table service (npm azurite, a devDependency) on a free
 * port with its data in a temporary directory and resolves with { url, stop }.
 */
export async function startAzurite() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "tabletop-azurite-"));
  const bin = join(repo, "web", "node_modules", ".bin", "azurite-table");
  const proc = spawn(bin, ["--tableHost", "127.0.0.1", "--tablePort", String(port), "--location", dir, "--skipApiVersionCheck", "--silent"], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise((r) => proc.on("exit", r));
  await new Promise((resolve, reject) => {
    let log = "";
    const onData = (d) => ((log += d), /successfully started/.test(log) && resolve());
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    proc.on("exit", (code) => reject(new Error(`azurite exited ${code}: ${log}`)));
  });
  process.once("exit", () => proc.kill("SIGKILL"));
  // Azurite's graceful stop waits for idle keep-alive connections (Node's fetch keeps them
  // for minutes): after a moment, it is killed. Its data is a temporary directory.
  const stop = async () => {
    proc.kill("SIGINT");
    const t = setTimeout(() => proc.kill("SIGKILL"), 1000);
    await exited;
    clearTimeout(t);
  };
  return { url: `http://127.0.0.1:${port}/devstoreaccount1`, stop };
}

/**
 * startEdgeWorker starts the edge worker in local workerd (worker/edge, built by make
 * worker), with the worker's variables vars (storage in persistDir, on port, when given:
 * a restart), and resolves with { url, origin, stop }, or null when it is not built.
 */
export async function startEdgeWorker(vars = {}, { persistDir, port } = {}) {
  const runtime = join(repo, "worker", "edge", "runtime.mjs");
  if (!existsSync(join(repo, "worker", "edge", "build", "dist", "entry.js"))) return null;
  const { startEdge } = await import(runtime);
  const edge = await startEdge({ persistDir: persistDir ?? mkdtempSync(join(tmpdir(), "tabletop-edge-")), port, vars });
  return { url: `${edge.url}/devstoreaccount1`, origin: edge.url, stop: edge.stop };
}
