// A WebSocket client for the edge tests, on node:http: Node 20 has no WebSocket without a
// flag. It opens a socket (or reports the refusal's status and body), reads the server's
// text and close frames, and sends masked text frames. NodeWebSocket puts the browser's
// WebSocket interface over it, for the browser module's TableSync under Node.
import { request } from "node:http";
import { randomBytes } from "node:crypto";

/**
 * openSocket opens a WebSocket at url (http:) and resolves with { status, body } when the
 * upgrade is refused, else with { status: 101, next(ms), listen(fn), send(text), close(),
 * closed }: next resolves with the next text message, or null after ms; listen hands fn
 * every message instead, from the first not yet read; closed resolves with the close's
 * { code, reason }.
 */
export function openSocket(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Key": randomBytes(16).toString("base64"), "Sec-WebSocket-Version": "13" },
    });
    req.on("error", reject);
    req.on("response", async (res) => {
      let body = "";
      try {
        for await (const chunk of res) body += chunk;
      } catch {
        // the runtime closed the connection after the refusal: its status is what counts
      }
      resolve({ status: res.statusCode, headers: res.headers, body });
    });
    req.on("upgrade", (res, socket, head) => resolve(connected(res.statusCode, socket, head)));
    req.end();
  });
}

function connected(status, socket, head) {
  const messages = [];
  const waiting = [];
  let buf = Buffer.from(head);
  let onClose;
  const closed = new Promise((r) => (onClose = r));
  let listener = null;
  const deliver = (m) => (listener ? listener(m) : waiting.length ? waiting.shift()(m) : messages.push(m));
  const read = (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const opcode = buf[0] & 0x0f;
      let len = buf[1] & 0x7f;
      let at = 2;
      if (len === 126) (len = buf.readUInt16BE(2)), (at = 4);
      else if (len === 127) (len = Number(buf.readBigUInt64BE(2))), (at = 10);
      if (buf.length < at + len) return;
      const payload = buf.subarray(at, at + len);
      buf = buf.subarray(at + len);
      if (opcode === 1) deliver(payload.toString("utf8"));
      if (opcode === 8) {
        onClose({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString("utf8") });
        socket.end();
      }
    }
  };

  socket.on("close", () => onClose({ code: 1006, reason: "" }));
  const frame = (opcode, data) => {
    const payload = Buffer.from(data);
    const mask = randomBytes(4);
    const masked = payload.map((b, i) => b ^ mask[i % 4]);
    socket.write(Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]));
  };
  const api = {
    status,
    closed,
    listen(fn) {
      listener = fn;
      for (const m of messages.splice(0)) fn(m);
    },
    next(ms) {
      if (messages.length) return Promise.resolve(messages.shift());
      return new Promise((resolve) => {
        const got = (m) => (clearTimeout(timer), resolve(m));
        const timer = setTimeout(() => (waiting.splice(waiting.indexOf(got), 1), resolve(null)), ms);
        waiting.push(got);
      });
    },
    send: (text) => frame(1, text),
    close: () => (frame(8, Buffer.from([0x03, 0xe8])), socket.end()),
  };
  read(Buffer.alloc(0)); // what came with the upgrade's answer
  socket.on("data", read);
  return api;
}

/** NodeWebSocket is the part of the browser's WebSocket that TableSync uses (onopen, onmessage, onclose, onerror, send, close, readyState). */
export class NodeWebSocket {
  constructor(url) {
    this.readyState = 0;
    openSocket(url.replace(/^ws/, "http")).then(
      (s) => (s.status === 101 ? this._opened(s) : this._failed()),
      () => this._failed(),
    );
  }

  _opened(s) {
    this._s = s;
    this.readyState = 1;
    this.onopen?.({});
    s.listen((data) => this.readyState === 1 && this.onmessage?.({ data }));
    s.closed.then(({ code }) => this._closed(code));
  }

  _failed() {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code: 1006 });
  }

  _closed(code) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }

  send(text) {
    this._s?.send(text);
  }

  close() {
    this._s?.close();
    this._closed(1000);
  }
}
