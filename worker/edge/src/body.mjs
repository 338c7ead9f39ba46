// Reading a request's body at the entry Worker, which holds it whole: it routes by it (an
// insert's or a batch's PartitionKey is inside) and hands it to an object in one call. So
// a body is refused before it is held whole, with the answer the Go handler gives the same
// body natively: one that announces more than MAX_BODY_BYTES in its Content-Length at once,
// one that sends more as soon as it passes them (413 RequestBodyTooLarge); one that ends
// before its Content-Length or whose chunked framing breaks (400 InvalidInput).

/**
 * MAX_BODY_BYTES is the largest body the Go handler reads, Go's rest.MaxBodyBytes (a
 * test of worker/edge checks that they agree): each operation's own limit, no larger,
 * is the handler's to apply.
 */
export const MAX_BODY_BYTES = 4 << 20;

/** BodyRefused is what readBody throws for a body it refuses: the status, code and message to answer. */
export class BodyRefused extends Error {
  constructor(status, code, message) {
    super(message);
    Object.assign(this, { status, code });
  }
}

const tooLarge = () => new BodyRefused(413, "RequestBodyTooLarge", "The request body is too large and exceeds the maximum permissible limit.");
const malformed = () => new BodyRefused(400, "InvalidInput", "One of the request inputs is not valid. request body is malformed");

/** readBody reads request's body, at most MAX_BODY_BYTES of it: its bytes, or null for none. */
export async function readBody(request) {
  if (request.body === null) return null;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw malformed(); // the runtime could not read the body's framing, or it ended early
    });
    if (done) break;
    n += value.byteLength;
    if (n > MAX_BODY_BYTES) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return n === 0 ? null : join(chunks, n);
}

/** join is chunks, n bytes in all, as one array. */
function join(chunks, n) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) out.set(c, off), (off += c.byteLength);
  return out;
}
