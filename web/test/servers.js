// Servers for the sync tests: the native server (worker/native, built once per process
// into a temporary directory), listening on a free 127.0.0.1 port with its data in memory.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let binary;

/** DEV_KEY is the development account's well-known key. */
export const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** nativeBinary builds worker/native once and returns its path. */
export function nativeBinary() {
  binary ??= (() => {
    const out = join(mkdtempSync(join(tmpdir(), "tabletop-native-")), "tabletop");
    execFileSync("go", ["build", "-o", out, "./worker/native"], { cwd: repo, stdio: "inherit" });
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
