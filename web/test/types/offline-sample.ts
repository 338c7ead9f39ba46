// The offline-first guide of web/README.md, type-checked against tabletop.d.ts by
// `make test` (tsc --noEmit -p test/types); test/sync.test.js runs the same calls.
import { TableClient, TableSync, AzureNamedKeyCredential, liveQuery, odata, type TableChange, type SyncStatus } from "../../tabletop.js";

declare const key: string;
declare function render(todos: unknown[]): void;
declare function confirm(question: string): boolean;
declare function show(online: boolean | undefined, pending: number | undefined, lastSync: Date | undefined, code: string | undefined): void;

interface Todo {
  title: string;
  done: boolean;
}

export async function main(): Promise<void> {
  const todos = new TableClient("myapp", "todos");
  const sync = new TableSync(todos, {
    url: "http://127.0.0.1:10002/devstoreaccount1",
    table: "todos",
    credential: new AzureNamedKeyCredential("devstoreaccount1", key),
    resolve: (c) => (c.remote ? "remote" : { ...c.local, merged: true }),
  });
  await sync.track();
  sync.on("status", (s: SyncStatus) => show(s.online, s.pending, s.lastSync, s.error?.code));
  sync.on("conflict", (c) => console.warn("conflict on", c.rowKey, c.local, c.remote, c.resolution));
  sync.on("error", (e) => {
    if (e.remoteLost && confirm(`The server's table may be lost (${e.code}). Send it this device's copy?`)) void sync.sync({ onRemoteLost: "push" });
  });
  sync.start({ interval: 30_000 });

  const sub = liveQuery(() => todos.listEntities<Todo>({ queryOptions: { filter: odata`done eq ${false}` } })).subscribe((open) => render(open));
  todos.on("change", (c: TableChange) => console.log(c.kind, c.rowKey, c.remote ? "from the server" : "local"));
  for await (const c of todos.changes({ filter: odata`done eq ${true}` })) {
    console.log("done:", c.rowKey);
    break;
  }
  await todos.createEntity({ partitionKey: "me", rowKey: crypto.randomUUID(), title: "Write", done: false });
  const { pushed, pulled, conflicts }: { pushed: number; pulled: number; conflicts: number } = await sync.sync({ reconcile: true });
  console.log(pushed, pulled, conflicts);
  sub.unsubscribe();
  await sync.stop();
}
