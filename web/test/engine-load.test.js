// Loading the engine (src/engine.js): the wasm's request goes out while wasm_exec.js is
// still loading, not after it; where wasm_exec.js cannot be loaded, a page's own global
// Go serves. Its own file: loadEngine loads once per process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, mkdtemp, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadEngine } from "../src/engine.js";

const dist = new URL("../dist/", import.meta.url);

test("loadEngine", async (t) => {
  await t.test("OK", async () => {
    // The stand-in for wasm_exec.js finishes loading only once the server has been asked
    // for the wasm: an engine that fetched the wasm after loading it would never start.
    let requested;
    globalThis.tabletopWasmRequested = new Promise((r) => (requested = r));
    const wasm = await readFile(new URL("tabletop.wasm", dist));
    const server = createServer((req, res) => {
      requested();
      res.writeHead(200, { "Content-Type": "application/wasm" }).end(wasm);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const dir = await mkdtemp(join(tmpdir(), "tabletop-engine-"));
    const execUrl = join(dir, "wasm_exec.js");
    await writeFile(execUrl, `await globalThis.tabletopWasmRequested;\nawait import(${JSON.stringify(new URL("wasm_exec.js", dist).href)});\n`);
    try {
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("the wasm was not requested while wasm_exec.js loaded")), 20_000).unref());
      const engine = await Promise.race([loadEngine({ wasmUrl: `http://127.0.0.1:${server.address().port}/tabletop.wasm`, wasmExecUrl: `file://${execUrl}` }), timeout]);
      assert.equal(typeof engine.call, "function");
      assert.equal(await loadEngine(), engine, "loaded once per process");
    } finally {
      server.close();
      delete globalThis.tabletopWasmRequested;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

test("loadEngine with a page's own global Go", async (t) => {
  // A page that put wasm_exec.js in a script tag and serves no copy where the engine
  // looks: the engine runs under that global class, and leaves it in place.
  await t.test("OK", async () => {
    const probe = `
      await import(${JSON.stringify(new URL("wasm_exec.js", dist).href)});
      const Theirs = globalThis.Go;
      const { loadEngine } = await import(${JSON.stringify(new URL("../src/engine.js", import.meta.url).href)});
      const engine = await loadEngine({ wasmExecUrl: "file:///nonexistent/wasm_exec.js" });
      console.log(typeof engine.call, globalThis.Go === Theirs);
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", probe]);
    assert.equal(stdout.trim(), "function true");
  });
});
