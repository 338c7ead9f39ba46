// Transactions as the SDK builds them: TableTransaction collects actions, and
// transactionAction turns each into the [operation, entity JSON, If-Match] write that the
// engine (in the browser) or the RPC entrypoint (from another Worker) applies.

import { invalidInput } from "./errors.js";
import { entityJSON, keysJSON } from "./values.js";

/** TableTransaction collects actions for TableClient.submitTransaction, as in the SDK. */
export class TableTransaction {
  constructor(actions = []) {
    this.actions = actions;
  }
  createEntity(entity) {
    this.actions.push(["create", entity]);
  }
  deleteEntity(partitionKey, rowKey, options) {
    this.actions.push(["delete", { partitionKey, rowKey }, options]);
  }
  /** updateEntity takes (entity, mode?, options?) or, as the SDK also does, (entity, options). */
  updateEntity(entity, mode = "Merge", options) {
    if (typeof mode === "object" && mode !== null) [mode, options] = ["Merge", mode];
    this.actions.push(["update", entity, mode, options]);
  }
  upsertEntity(entity, mode = "Merge") {
    this.actions.push(["upsert", entity, mode]);
  }
}

/** transactionAction is the [kind, json, ifMatch] write of one SDK transaction action. */
export function transactionAction([kind, entity, a, b]) {
  switch (kind) {
    case "create": return ["create", entityJSON(entity), ""];
    case "delete": return ["delete", keysJSON(entity?.partitionKey, entity?.rowKey), a?.etag ?? "*"];
    case "update": {
      const [mode, options] = typeof a === "object" && a !== null ? ["Merge", a] : [a ?? "Merge", b];
      return [`update${checkMode(mode)}`, entityJSON(entity), options?.etag ?? "*"];
    }
    case "upsert": return [`upsert${checkMode(a ?? "Merge")}`, entityJSON(entity), ""];
  }
  throw invalidInput(`unknown transaction action ${kind}`);
}

/** checkMode returns an update mode, "Merge" or "Replace", or throws InvalidInput. */
export function checkMode(mode) {
  if (mode !== "Merge" && mode !== "Replace") throw invalidInput(`update mode must be "Merge" or "Replace", not ${mode}`);
  return mode;
}
