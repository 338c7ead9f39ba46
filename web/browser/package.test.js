// The npm package as a newcomer gets it: `npm pack`, installed into a fresh project, a
// TypeScript program type-checks against it, and the bundle and its wasm copied into a
// folder of an app's own (not named dist) run in Chromium; a wasm that is not there is a
// load error naming its URL and the HTTP status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { access, mkdtemp, mkdir, copyFile, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

test("the packed module installs, type-checks and runs from an app's own folder", { timeout: 180_000 }, async (t) => {
  const work = await mkdtemp(join(tmpdir(), "tabletop-pack-"));
  execFileSync("npm", ["pack", "--pack-destination", work, "--silent"], { cwd: web, stdio: "ignore" });
  const tarball = (await readdir(work)).find((f) => f.endsWith(".tgz"));
  assert.ok(tarball, "npm pack made no tarball");
  const app = join(work, "app");
  await mkdir(app);
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  execFileSync("npm", ["install", join(work, tarball), "--no-audit", "--no-fund", "--offline", "--silent"], { cwd: app, stdio: "ignore" });
  const pkg = join(app, "node_modules", "@tabletopdb", "tabletop");
  for (const f of ["dist/tabletop.js", "dist/tabletop.wasm", "dist/tabletop.d.ts", "LICENSE", "package.json"]) await access(join(pkg, f)); // in the tarball

  // TypeScript resolves the package's types through its exports.
  await writeFile(join(app, "main.ts"), `import { openStore, TableClient, version } from "@tabletopdb/tabletop";
const store = await openStore("memory:app", { inMemory: true });
const people = new TableClient(store, "people");
await people.createTable();
await people.createEntity({ partitionKey: "uk", rowKey: "ada", name: "Ada" });
const v: string = version;
console.log(v, (await people.getEntity<{ name: string }>("uk", "ada")).name);
`);
  await writeFile(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "ES2022", moduleResolution: "bundler", lib: ["ES2022", "DOM"], strict: true, noEmit: true }, files: ["main.ts"] }));
  execFileSync(process.execPath, [join(web, "node_modules", "typescript", "bin", "tsc"), "-p", app], { cwd: app, stdio: "inherit" });

  // The bundle and its wasm copied into the app's lib/, served from there.
  await mkdir(join(app, "site", "lib"), { recursive: true });
  for (const f of ["tabletop.js", "tabletop.wasm"]) await copyFile(join(pkg, "dist", f), join(app, "site", "lib", f));
  await mkdir(join(app, "site", "nowasm"));
  await copyFile(join(pkg, "dist", "tabletop.js"), join(app, "site", "nowasm", "tabletop.js"));
  await writeFile(join(app, "site", "index.html"), "<!doctype html><title>app</title>");
  const site = await serve(join(app, "site"));
  t.after(() => site.close());
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-pack-profile-")));
  t.after(() => b.close());
  const page = await b.ctx.newPage();
  await page.goto(site.url);
  const got = await page.evaluate(async () => {
    const T = await import("/lib/tabletop.js");
    const store = await T.openStore("app", { inMemory: true });
    const people = new T.TableClient(store, "people");
    await people.createTable();
    await people.createEntity({ partitionKey: "uk", rowKey: "ada", name: "Ada" });
    const name = (await people.getEntity("uk", "ada")).name;
    let failed;
    try {
      const M = await import("/nowasm/tabletop.js?fresh");
      await M.loadEngine({ wasmCache: false, wasmUrl: new URL("/nowasm/tabletop.wasm", location.href) });
    } catch (e) {
      failed = { message: e.message, code: e.code };
    }
    return { name, version: T.version, failed };
  });
  assert.equal(got.name, "Ada");
  assert.equal(got.version, JSON.parse(execFileSync("node", ["-p", "JSON.stringify(require('./package.json').version)"], { cwd: web, encoding: "utf8" })));
  assert.equal(got.failed?.code, "EngineLoadFailed", JSON.stringify(got.failed));
  assert.match(got.failed.message, /\/nowasm\/tabletop\.wasm: HTTP 404/);
});
