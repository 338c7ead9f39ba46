// A user's own Worker for the binding test and bench: bound to Tabletop's RPC entrypoint
// as env.TABLETOP, it runs one scenario of scenarios.mjs per request (GET /run/{name})
// with the binding client, and answers { ok } or { ok: false, error }. For bench.mjs, GET
// /read/{table}/{pk}/{rk} reads one entity through the binding and GET /ping answers alone.
import * as clients from "../../binding/client.mjs";
import { scenarios, bindingScenarios } from "./scenarios.mjs";

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === "/ping") return new Response("pong");
    if (path.startsWith("/read/")) {
      const [table, pk, rk] = path.split("/").slice(2).map(decodeURIComponent);
      try {
        return Response.json(await new clients.TableClient(env.TABLETOP, table).getEntity(pk, rk, { disableTypeConversion: true }));
      } catch (err) {
        return Response.json({ error: String(err) }, { status: err.statusCode ?? 500 });
      }
    }
    const name = decodeURIComponent(new URL(request.url).pathname.replace(/^\/run\//, ""));
    const scenario = scenarios[name] ?? bindingScenarios[name];
    if (!scenario) return Response.json({ ok: false, error: `no scenario ${name}`, names: Object.keys(scenarios) }, { status: 404 });
    try {
      await scenario(clients, env.TABLETOP);
      return Response.json({ ok: true });
    } catch (err) {
      return Response.json({ ok: false, error: String(err?.stack ?? err) });
    }
  },
};
