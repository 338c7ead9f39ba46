// Storage for edge functions: a second Worker, bound to the bundle's RPC entrypoint
// (src/rpc.mjs) by a service binding as a user's own Worker would be, runs the browser
// module's entity scenarios (test/binding/scenarios.mjs) through the binding client
// (binding/client.mjs) in local workerd, with the same expected results. The user Worker
// is bundled with esbuild, as wrangler bundles one.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { build } from "esbuild";
import { startEdge, freePort, edgeDir, DEV_ACCOUNTS } from "../runtime.mjs";
import { tempDir, clients } from "./helpers.mjs";
import { scenarios, bindingScenarios, SECOND } from "./binding/scenarios.mjs";

const tmp = tempDir();
let edge, userURL;

before(async () => {
  await build({
    entryPoints: [join(edgeDir, "test", "binding", "user.mjs")],
    outfile: join(edgeDir, "build", "dist", "binding-user.js"),
    bundle: true, format: "esm", platform: "neutral", logLevel: "warning",
  });
  const port = await freePort();
  const accounts = `${DEV_ACCOUNTS};${SECOND}:${btoa("the second account's key, 32+ b")}`;
  edge = await startEdge({ persistDir: tmp.dir, vars: { TABLETOP_DEBUG: "1", TABLETOP_ACCOUNTS: accounts }, user: { module: "binding-user.js", port } });
  userURL = `http://127.0.0.1:${port}`;
});

after(async () => {
  await edge?.stop();
  tmp.cleanup();
});

for (const name of [...Object.keys(scenarios), ...Object.keys(bindingScenarios)]) {
  test(`through the binding: ${name}`, async () => {
    const res = await fetch(`${userURL}/run/${encodeURIComponent(name)}`);
    const answer = await res.json();
    assert.ok(answer.ok, answer.error);
  });
}

test("what the binding wrote, the REST API serves", async () => {
  const c = clients(edge.url).table("writes");
  await assert.rejects(c.getEntity("p", "1"), (e) => e.statusCode === 404);
  const people = await clients(edge.url).table("people").getEntity("p", "1");
  assert.equal(people.name, "Ann");
});
