// The worker of bench/worker-trip.js: answers every message with a copy of an entity-sized
// answer, as an engine hosted in a worker would answer a point read. Served both as a
// SharedWorker (onconnect) and as a dedicated Worker (onmessage).
const answer = new Uint8Array(200);

onconnect = (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => port.postMessage({ id: m.data.id, body: answer });
};

onmessage = (m) => postMessage({ id: m.data.id, body: answer });
