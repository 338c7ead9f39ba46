// A page of another origin reads the Azure error code of a refused request, on the native
// server and at the edge: error answers carry the CORS headers a success would, so the
// browser reports the answer rather than a network error ("Failed to fetch"). Each
// request is preflighted (it sends Authorization and x-ms-* headers), as the SDKs' are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableServiceClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { serve } from "./serve.js";
import { launch } from "./chromium.js";
import { startNative, startEdgeWorker, DEV_KEY } from "../test/servers.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/** refusals sends, from the page, requests the server refuses, and returns what the page read of each answer. */
function refusals([url, wrongAccount]) {
  const sig = "A".repeat(43) + "=";
  const send = async (target, account) => {
    try {
      const res = await fetch(target, {
        headers: { authorization: `SharedKeyLite ${account}:${sig}`, "x-ms-version": "2019-02-02", "x-ms-date": new Date().toUTCString(), accept: "application/json;odata=nometadata" },
      });
      return `${res.status} ${res.headers.get("x-ms-error-code")} ${(await res.json())["odata.error"]?.code}`;
    } catch (err) {
      return `${err.name}: ${err.message}`;
    }
  };
  return Promise.all([send(`${url}/Tables`, "someoneelse"), send(`${url}/Tables`, "devstoreaccount1"), send(`${wrongAccount}/Tables`, "someoneelse")]);
}

for (const [host, start] of [
  ["native server", () => startNative()],
  ["edge", startEdgeWorker],
]) {
  test(`a page of another origin reads the error codes of the ${host}`, async (t) => {
    const server = await start();
    if (!server) {
      assert.ok(!process.env.TABLETOP_SYNC_EDGE, "TABLETOP_SYNC_EDGE is set: the edge must be built (make worker)");
      return t.skip("worker/edge/build missing: run make worker");
    }
    const site = await serve(web);
    const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-cors-")));
    try {
      const svc = new TableServiceClient(server.url, new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY), { allowInsecureConnection: true });
      const origin = site.url.replace(/\/$/, "");
      await svc.setProperties({ cors: [{ allowedOrigins: origin, allowedMethods: "GET,POST", allowedHeaders: "*", exposedHeaders: "x-ms-*", maxAgeInSeconds: 60 }] });
      const page = await b.ctx.newPage();
      await page.goto(`${site.url}browser/blank.html`);
      const wrongAccount = server.url.replace(/devstoreaccount1$/, "someoneelse");
      assert.deepEqual(await page.evaluate(refusals, [server.url, wrongAccount]), [
        "403 AuthenticationFailed AuthenticationFailed", // credentials of an account not served
        "403 AuthenticationFailed AuthenticationFailed", // a wrong signature
        "400 InvalidUri InvalidUri", // an account not served in the URL
      ]);
    } finally {
      await b.close();
      site.close();
      await server.stop();
    }
  });
}
