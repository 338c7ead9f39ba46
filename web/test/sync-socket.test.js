// A subscriber socket's wake (sync-socket.js) lasts until a pull begins: a watch that
// saw it and was then aborted leaves it for the next watch, so no change waits for the
// poll interval.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FeedSocket } from "../src/sync-socket.js";

/** FakeWebSocket stands for a browser WebSocket the test opens, wakes and closes by hand. */
class FakeWebSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    FakeWebSocket.last = this;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  wake() {
    this.onmessage?.({ data: '{"changed":true}' });
  }
  send() {}
  close() {
    this.readyState = 3;
    this.onclose?.({ code: 1000 });
  }
}

test("FeedSocket: a wake lasts until a pull begins", async () => {
  const socket = new FeedSocket(FakeWebSocket, "ws://x/");
  FakeWebSocket.last.open();
  const first = new AbortController();
  const waiting = socket.next(first.signal);
  FakeWebSocket.last.wake();
  assert.equal(await waiting, "changed");
  first.abort(); // the watch that saw the wake is dropped before its sync ran
  assert.equal(await socket.next(new AbortController().signal), "changed", "the next watch sees the wake");
  socket.pullBegins();
  const after = new AbortController();
  const pending = socket.next(after.signal);
  after.abort();
  assert.equal(await pending, "stopped", "a pull read the change: nothing to wake for");
  socket.close();
  assert.ok(socket.ended);
});

test("FeedSocket: a wake during a pull wakes the watch after it", async () => {
  const socket = new FeedSocket(FakeWebSocket, "ws://x/");
  FakeWebSocket.last.open();
  socket.pullBegins();
  FakeWebSocket.last.wake(); // a write durable after the pull read the feed
  assert.equal(await socket.next(new AbortController().signal), "changed");
  socket.close();
});

test("FeedSocket: a socket that ends without opening fails the watch", async () => {
  const socket = new FeedSocket(FakeWebSocket, "ws://x/");
  const watching = socket.next(new AbortController().signal);
  FakeWebSocket.last.close();
  await assert.rejects(watching, { code: "NetworkError" });
});
