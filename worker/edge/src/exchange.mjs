// One HTTP exchange across the boundary into Go, in the form worker/edge/bridge reads: a head
// string ("METHOD URL\n" then "name: value\n" lines) and the body as one Uint8Array; the
// answer comes back the same way, the status in place of the request line.

const EMPTY = new Uint8Array(0);

// Headers the runtime sets itself on an answer, or that do not cross a hop.
const DROP = new Set(["content-length", "transfer-encoding", "connection", "keep-alive"]);

/** requestHead is the head of request, without the headers named in skip. */
export function requestHead(request, skip = new Set()) {
  return `${request.method} ${request.url}\n${headerLines(request.headers, skip)}`;
}

/** headerLines is the header lines of a head: those of headers, without the ones named in skip. */
export function headerLines(headers, skip = new Set()) {
  let lines = "";
  for (const [name, value] of headers) if (!skip.has(name)) lines += `${name}: ${value}\n`;
  return lines;
}

/** requestBody reads the body of request. */
export async function requestBody(request) {
  if (request.body === null) return EMPTY;
  return new Uint8Array(await request.arrayBuffer());
}

/** statusOf is the status of an answer's head. */
export function statusOf(head) {
  return Number(head.slice(0, head.indexOf("\n")));
}

/** toResponse builds the Response of an answer's head and body. */
export function toResponse(head, body, method) {
  const lines = head.split("\n");
  const status = Number(lines[0]);
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    if (!DROP.has(name.toLowerCase())) headers.append(name, line.slice(colon + 1).trim());
  }
  const noBody = method === "HEAD" || status === 204 || status === 304 || status === 205 || status < 200;
  return new Response(noBody ? null : body, { status, headers });
}

/** errorResponse is an Azure-shaped 500 answer for a failure outside the Go handler. */
export function errorResponse(err, status = 500, code = "InternalError") {
  const body = JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: String(err?.message ?? err) } } });
  return new Response(body, {
    status,
    headers: { "content-type": "application/json;odata=minimalmetadata;streaming=true;charset=utf-8", "x-ms-error-code": code },
  });
}

/** DEFAULT_VERSION is the x-ms-version answered when a request names none. */
const DEFAULT_VERSION = "2019-02-02";

/**
 * serviceError is the error answer the Go handler gives, for one the glue gives itself
 * (request and its URL url; status, code, message, and detail for XML): the headers every
 * answer of the service carries, and the error body in XML for the operations that speak
 * XML (those with a comp parameter), in JSON otherwise.
 */
export function serviceError(request, url, { status, code, message, detail = "" }) {
  const id = crypto.randomUUID();
  const now = new Date();
  const text = `${message}\nRequestId:${id}\nTime:${now.toISOString().replace(/Z$/, "0000Z")}`;
  const headers = new Headers({
    "x-ms-request-id": id,
    "x-ms-version": request.headers.get("x-ms-version") || DEFAULT_VERSION,
    date: now.toUTCString(),
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
    "x-ms-error-code": code,
  });
  const clientId = request.headers.get("x-ms-client-request-id");
  if (clientId) headers.set("x-ms-client-request-id", clientId);
  let body;
  if (url.searchParams.get("comp")) {
    headers.set("content-type", "application/xml");
    const more = detail ? `<AuthenticationErrorDetail>${xml(detail)}</AuthenticationErrorDetail>` : "";
    body = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${xml(text)}</Message>${more}</Error>`;
  } else {
    headers.set("content-type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8");
    body = JSON.stringify({ "odata.error": { code, message: { lang: "en-US", value: text } } });
  }
  return new Response(body, { status, headers });
}

const XML_ESCAPES = { "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&#34;", "'": "&#39;", "\n": "&#xA;" };

// xml escapes text as Go's encoding/xml does, so the answer is the Go handler's.
function xml(s) {
  return s.replace(/[<>&"'\n]/g, (c) => XML_ESCAPES[c]);
}
