// Live sync on a WebSocket: a subscriber of a table's change feed is told, on a socket its
// table object keeps with the WebSocket Hibernation API, that a write to the table is
// durable, and pulls with the ordinary change feed. A held change feed request (wait=…,
// objects.mjs hold) keeps its object in memory, and billed, for as long as it waits; a
// hibernatable socket lets the runtime evict the object while the socket stays open, so
// an idle subscriber keeps no request held and no timer pending. Waking is only a hint:
// the socket carries no data, and the pull that follows is authorized as any other.
//
// How the upgrade is authorized: by a ticket. A browser cannot set headers on a
// WebSocket, so a Shared Key client could not sign the upgrade, and a SAS on the upgrade
// URL would make the object run a second authorization, for a request the Go handler
// does not know. Instead an ordinary change feed request, authorized by the Go handler
// exactly as today (Shared Key, account SAS, table SAS with its key range), that asks to
// wait and to subscribe (wait=…&subscribe=1) and finds no change is answered at once with
// a ticket, in the page as "tabletop.subscribe" (and the x-tabletop-subscribe header),
// rather than held. The ticket is an HMAC-SHA256, under a key derived from the account's
// first key, of:
//
//   o  the table object it is for (account/table, lowercase)
//   x  when it expires: TICKET_TTL_MS after the page, the time a client has to upgrade
//   p  the object's write position when the page was read (boot id and writes since)
//   k  the SAS's key range [spk, srk, epk, erk] (null: every key)
//   u  when the SAS expires (its se; null: Shared Key, or a stored policy's expiry)
//
// GET /{account}/{table}()?comp=changes&subscribe={ticket} with Upgrade: websocket is
// then checked at the entry Worker (a bad ticket never wakes an object: 403
// AuthenticationFailed) and in the table's object, which accepts the socket. If the
// object served a write since the page (p differs), it wakes the socket at once, so no
// write falls between the pull and the subscription. A write wakes the sockets whose
// key range may hold its PartitionKey (only the PartitionKey is compared: a write to a
// key of the SAS's first or last partition outside its RowKeys may wake it, and its pull
// finds nothing); a socket whose SAS has expired is closed at the next wake, not woken.
// A revoked stored access policy is not noticed by a socket: its wakes go on, and the
// pulls they prompt are refused.
//
// Tables split across objects are not offered sockets: a subscription on each range's
// object would have to follow the partition map through later splits, so a split table
// keeps the held request (feed.mjs), and an object whose range is split closes its
// sockets (code 4000), whose clients pull and ask again, getting the held request.
import { compareKeys } from "./partition.mjs";
import { serviceError } from "./exchange.mjs";
import { accountKeys } from "./restcall.mjs";

/** SUBSCRIBE_PARAM asks a change feed request for a ticket, or carries one on the upgrade. */
export const SUBSCRIBE_PARAM = "subscribe";

/** TICKET_HEADER is the header of a change feed answer holding the ticket (the page repeats it). */
export const TICKET_HEADER = "x-tabletop-subscribe";

/** TICKET_TTL_MS is how long a ticket may be used to open a socket. */
export const TICKET_TTL_MS = 60_000;

/** SOCKETS is the tag of a table object's subscriber sockets. */
export const SOCKETS = "feed";

/** WAKE is the message a subscriber gets when a write it may see is durable. */
export const WAKE = '{"changed":true}';

/** MOVED_CLOSE is the close code of a socket whose object's range is moving: subscribe again. */
export const MOVED_CLOSE = 4000;

/** EXPIRED_CLOSE is the close code of a socket whose SAS expired. */
export const EXPIRED_CLOSE = 4001;

/** ATTACHMENT_MAX bounds a socket's attachment (the runtime keeps at most 2 KiB); a longer key range is dropped. */
const ATTACHMENT_MAX = 1800;

/** isSubscription tells whether request (its URL url) asks to open a subscriber socket. */
export function isSubscription(request, url) {
  return request.headers.get("upgrade")?.toLowerCase() === "websocket" && url.searchParams.get("comp") === "changes" && url.searchParams.has(SUBSCRIBE_PARAM);
}

/** asksTicket tells whether a change feed request's URL asks for a ticket rather than to be held. */
export function asksTicket(url) {
  return new URL(url).searchParams.get(SUBSCRIBE_PARAM) === "1";
}

/** issueTicket makes the ticket of a change feed page read at position, for object, of the request at url. */
export async function issueTicket(env, object, position, url) {
  const q = new URL(url).searchParams;
  const signed = q.has("sig");
  const k = signed && ["spk", "srk", "epk", "erk"].some((p) => q.has(p)) ? ["spk", "srk", "epk", "erk"].map((p) => q.get(p)) : null;
  const until = signed && q.has("se") ? Date.parse(q.get("se")) : NaN;
  const payload = { o: object, x: Date.now() + TICKET_TTL_MS, p: position, k, u: Number.isNaN(until) ? null : until };
  const body = base64url(new TextEncoder().encode(JSON.stringify(payload)));
  const key = await ticketKey(env, object.split("/")[0]);
  return `${body}.${base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body))))}`;
}

/** readTicket returns the payload of ticket if it is valid for object and not expired, else null. */
export async function readTicket(env, object, ticket) {
  const [body, sig, extra] = String(ticket ?? "").split(".");
  if (!body || !sig || extra !== undefined) return null;
  let payload;
  try {
    const key = await ticketKey(env, object.split("/")[0]);
    if (!key || !(await crypto.subtle.verify("HMAC", key, fromBase64url(sig), new TextEncoder().encode(body)))) return null;
    payload = JSON.parse(new TextDecoder().decode(fromBase64url(body)));
  } catch {
    return null;
  }
  return payload?.o === object && payload.x > Date.now() ? payload : null;
}

/** attachmentOf is what a subscriber socket keeps through hibernation: its key range and until. */
export function attachmentOf(ticket) {
  const a = { k: ticket.k, u: ticket.u };
  return JSON.stringify(a).length > ATTACHMENT_MAX ? { k: null, u: ticket.u } : a;
}

/** mayConcern tells whether a write to PartitionKey pk (null: unknown, or the whole table) may be in key range k. */
export function mayConcern(k, pk) {
  if (!k || pk === null || pk === undefined) return true;
  const [spk, , epk] = k;
  if (spk !== null && compareKeys(pk, spk) < 0) return false;
  return epk === null || compareKeys(pk, epk) <= 0;
}

/**
 * wake tells the subscriber sockets of an object (ctx) that a write to PartitionKey pk is
 * durable; a socket whose SAS has expired is closed instead.
 */
export function wake(ctx, pk) {
  const now = Date.now();
  for (const ws of ctx.getWebSockets(SOCKETS)) {
    const a = ws.deserializeAttachment() ?? {};
    try {
      if (a.u != null && now >= a.u) ws.close(EXPIRED_CLOSE, "the shared access signature expired");
      else if (mayConcern(a.k, pk)) ws.send(WAKE);
    } catch {
      // closing already: its client pulls and subscribes again
    }
  }
}

/** closeAll closes the subscriber sockets of an object (ctx) with code and reason. */
export function closeAll(ctx, code, reason) {
  for (const ws of ctx.getWebSockets(SOCKETS)) {
    try {
      ws.close(code, reason);
    } catch {
      // closing already
    }
  }
}

/** refuseTicket is the answer to an upgrade whose ticket is not valid: 403 AuthenticationFailed, as the Go handler words it. */
export function refuseTicket(request, url) {
  return serviceError(request, url, {
    status: 403,
    code: "AuthenticationFailed",
    message: "Server failed to authenticate the request. The subscription ticket is not valid or has expired.",
  });
}

/** notOffered is the answer to an upgrade for a table split across objects, which has no sockets. */
export function notOffered(request, url) {
  return serviceError(request, url, {
    status: 409,
    code: "SubscriptionNotOffered",
    message: "The table is split across objects: wait on the change feed (wait=seconds) instead.",
  });
}

const keys = new Map(); // "account\0key" → CryptoKey

// ticketKey is the HMAC key of an account's tickets, derived from its first key in
// TABLETOP_ACCOUNTS ("name:base64key[:key2];…"), or null when the account is not served.
async function ticketKey(env, account) {
  const accountKey = accountKeys(env.TABLETOP_ACCOUNTS).get(account);
  if (!accountKey) return null;
  const id = `${account}\0${accountKey}`;
  let key = keys.get(id);
  if (!key) {
    const secret = await crypto.subtle.importKey("raw", fromBase64(accountKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const derived = await crypto.subtle.sign("HMAC", secret, new TextEncoder().encode("tabletop subscription ticket v1"));
    key = await crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(id, key);
  }
  return key;
}

function fromBase64(s) {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

function base64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(s) {
  return fromBase64(s.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (s.length % 4)) % 4));
}
