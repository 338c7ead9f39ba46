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
