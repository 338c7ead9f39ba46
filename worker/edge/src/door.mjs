// Refusing strangers at the door: the entry Worker answers a request that cannot be
// authenticated, because it carries no credentials or malformed ones, without waking a
// Durable Object. Everything else, including every signature check, is the Go handler's,
// in the object: only there are the keys of a table's stored access policies and the
// exact canonical forms Azure signs.
//
// A request is refused here when it is not a CORS preflight (OPTIONS needs no
// credentials) and it has neither a shared access signature (a sig query parameter) nor
// an Authorization header of the form "SharedKey account:signature" or
// "SharedKeyLite account:signature" naming a served account with a base64 signature of
// an HMAC-SHA256 (32 bytes). The answer is the one the Go handler gives: 403
// AuthenticationFailed with Azure's error body, XML for the operations that speak XML
// (those with a comp parameter), JSON otherwise, and the CORS headers of the account's
// rules (cors.mjs).

import { servedAccount } from "./route.mjs";
import { serviceError } from "./exchange.mjs";

const MESSAGE =
  "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.";

const SCHEME = /^(SharedKey|SharedKeyLite) ([a-z0-9]{3,24}):([A-Za-z0-9+/]{43}=)$/;

/**
 * refusal returns the answer to a request refused at the door, or null to let it in. A
 * request for an account that is not served goes in: the handler answers it 400
 * InvalidUri, as the native server does.
 */
export function refusal(request, url, accounts) {
  if (request.method === "OPTIONS" || url.searchParams.has("sig")) return null;
  if (!accounts.includes(servedAccount(url, accounts))) return null;
  const auth = request.headers.get("authorization");
  const detail = credentialsProblem(auth, accounts);
  return detail === null ? null : refuse(request, url, detail);
}

// credentialsProblem says what is wrong with an Authorization header, or null if it is
// well formed for a served account.
function credentialsProblem(auth, accounts) {
  if (auth === null) return "The request carries neither an Authorization header nor a shared access signature.";
  const m = SCHEME.exec(auth.trim());
  if (!m) return "The Authorization header is not SharedKey or SharedKeyLite account:signature.";
  if (!accounts.includes(m[2])) return `The account ${m[2]} is not served here.`;
  return null;
}

// refuse answers 403 AuthenticationFailed, as the Go handler does.
function refuse(request, url, detail) {
  return serviceError(request, url, { status: 403, code: "AuthenticationFailed", message: MESSAGE, detail });
}
