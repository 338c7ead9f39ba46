// What the live sync tests share: a browser profile whose page syncs a table live with
// TableSync.start(), and the wait for a value to arrive in it.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { TableServiceClient, AzureNamedKeyCredential } from "@azure/data-tables";
import { launch } from "./chromium.js";
import { DEV_KEY } from "../test/servers.js";

/** web is the folder the pages are served from: web/. */
export const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/** cred is the development account's key, for the SDK in Node. */
export const cred = new AzureNamedKeyCredential("devstoreaccount1", DEV_KEY);

/** allowCORS lets pages of any origin call server (a native server or the edge worker). */
export async function allowCORS(server) {
  await new TableServiceClient(server.url, cred, { allowInsecureConnection: true }).setProperties({
    cors: [{ allowedOrigins: "*", allowedMethods: "GET,PUT,POST,DELETE,MERGE,PATCH,OPTIONS", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 60 }],
  });
}

/**
 * live opens a profile whose page syncs table at url live (with the account key, or with
 * sas, a SAS token, when given; polling every interval ms where the server holds no
 * request), and resolves with { value(rk, pk), write(rk, v, pk), contents(),
 * events, errors, page }: events lists the remote changes the page's store applied, as
 * "pk/rk", in order.
 */
export async function live(t, site, url, table, { sas, interval = 60_000 } = {}) {
  const b = await launch(await mkdtemp(join(tmpdir(), "tabletop-live-")));
  t.after(() => b.close());
  const page = await b.ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  if (process.env.LIVE_DEBUG) page.on("console", (m) => console.log("page:", m.text()));
  await page.goto(`${site.url}browser/blank.html`);
  await page.evaluate(
    async ([url, table, key, sas, interval]) => {
      const T = await import("/tabletop.js");
      const client = new T.TableClient(await T.openStore("app"), "items");
      const credential = sas ? new T.AzureSASCredential(sas) : new T.AzureNamedKeyCredential("devstoreaccount1", key);
      const sync = new T.TableSync(client, { url, table, credential });
      const events = [];
      client.on("change", (c) => c.remote && events.push(`${c.partitionKey}/${c.rowKey}`));
      sync.start({ interval });
      window.app = { client, sync, events };
    },
    [url, table, DEV_KEY, sas, interval],
  );
  const value = (rk, pk = "p") => page.evaluate(([pk, rk]) => window.app.client.getEntity(pk, rk).then((e) => e.v, () => null), [pk, rk]);
  // The write's promise is kept in the page until it settles, and waited for WRITE_MS at
  // most. Playwright awaits a promise through the DevTools protocol, which holds it weakly:
  // in three CI runs the page's collector took the promise of the same write, and
  // Playwright answered "Resulting promise was garbage collected"; the run that recorded
  // the store's state (below) found it idle, nothing queued or pending. Held, a write that
  // settles is reported, and one that never does fails after WRITE_MS with where the
  // store stood.
  const write = (rk, v, pk = "p") =>
    page
      .evaluate(
        ([pk, rk, v, ms]) => {
          const held = (window.writesInFlight ??= new Set());
          const w = window.app.client.upsertEntity({ partitionKey: pk, rowKey: rk, v });
          held.add(w);
          const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`not settled after ${ms} ms`)), ms));
          return Promise.race([w, late]).finally(() => held.delete(w));
        },
        [pk, rk, v, WRITE_MS],
      )
      .catch(async (e) => {
        const store = await page.evaluate(storeState).catch((e) => `unreadable: ${e.message}`);
        throw new Error(`writing ${pk}/${rk} failed: ${e.message}; the page's errors: ${JSON.stringify(errors)}; its store: ${JSON.stringify(store)}`);
      });
  const contents = () => page.evaluate(async () => {
    const out = {};
    for await (const e of window.app.client.listEntities()) out[`${e.partitionKey}/${e.rowKey}`] = e.v;
    return out;
  });
  const events = () => page.evaluate(() => [...window.app.events]);
  return { value, write, contents, events, errors, page };
}

/** WRITE_MS is how long a profile's write may take before it fails the test. */
const WRITE_MS = 20_000;

/**
 * storeState describes, in the page, where the store of window.app stands: what a failed
 * write's message carries, to tell a write the store lost from one still queued.
 */
function storeState() {
  const s = window.app.client._open;
  if (!s) return "no store opened";
  return {
    pumping: Boolean(s._pumping),
    queued: s._queue.length,
    inbox: s._inbox.map((m) => m.type),
    pending: s._pending,
    reopening: Boolean(s._reopening),
    alone: s._alone,
    closed: s._closed,
    engineFailed: Boolean(s._engine?.failed),
  };
}

/** arrives waits until profile holds v at (pk, rk), up to within ms, and returns how long that took. */
export async function arrives(profile, rk, v, { pk = "p", within = 5000 } = {}) {
  const start = performance.now();
  while ((await profile.value(rk, pk)) !== v) {
    if (performance.now() - start > within) throw new Error(`${pk}/${rk}=${v} not seen live after ${within} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - start;
}
