// CORS headers on the error answers that lack them at the entry Worker: those the glue
// builds itself (a refusal at the door, a body refused, a failure outside the Go handler,
// a range that stays busy) and any other. A browser reads an answer, and so its Azure
// error code, only when it carries the CORS headers of the account's rules; without them
// it reports a network error. The account object's Go handler, which keeps the rules,
// computes them as it does for its own answers.
import { accountStub } from "./objects.mjs";

/**
 * withCors returns res, or a copy of it with the CORS headers that the rules of account
 * give it when request has an Origin and res is an error answer without them. If the
 * account object cannot be asked, res goes as it is.
 */
export async function withCors(env, account, request, res) {
  const origin = request.headers.get("origin");
  if (!origin || res.status < 400 || res.headers.has("access-control-allow-origin")) return res;
  let lines;
  try {
    lines = await accountStub(env, account).cors(account, origin, request.method, [...res.headers.keys()]);
  } catch (err) {
    console.error(`tabletop: no CORS headers from ${account}: ${err.message}`);
    return res;
  }
  if (!lines) return res;
  const out = new Response(res.body, res);
  for (const line of lines.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) out.headers.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return out;
}
