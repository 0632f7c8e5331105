// Reading untrusted protocol objects field by field: an adapter copies a field into an action
// only when it has the type the reducer accepts, so what it returns is never rejected.
import { ERROR_CODES } from "../../wasm/protocol.js";

export function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export const isString = (value) => typeof value === "string";

// `{ type: "part", part }`, with `within` when the part belongs to a sub-agent's run.
export function partAction(part, within) {
  return within === undefined ? { type: "part", part } : { type: "part", part, within };
}

// Copies `source[from]` into `target[to]` when `accept` says it has the right type.
export function copyField(target, to, source, from, accept) {
  const value = source[from];
  if (value !== undefined && accept(value)) target[to] = value;
  return target;
}

// Any JSON value: everything but undefined (the reducer keeps it by reference).
export const isJson = (value) => value !== undefined;

// The fields of `record` other than `omitted`, undefined ones left out; undefined when none.
export function restOf(record, omitted) {
  let rest;
  for (const key of Object.keys(record)) {
    if (omitted.includes(key) || record[key] === undefined) continue;
    (rest ??= {})[key] = record[key];
  }
  return rest;
}

// `{ [namespace]: fields }` when there are fields, for a part's metadata.
export function namespaced(namespace, fields) {
  return fields === undefined ? undefined : { [namespace]: fields };
}

const patchOperations = new Set(["add", "remove", "replace", "move", "copy", "test"]);
const isPointer = (value) => isString(value) && (value === "" || value[0] === "/");

// An RFC 6902 patch as the reducer checks its shape (whether it applies is its business).
export function isJsonPatch(value) {
  return (
    Array.isArray(value) &&
    value.every(
      (operation) =>
        isRecord(operation) &&
        patchOperations.has(operation.op) &&
        isPointer(operation.path) &&
        (operation.op === "move" || operation.op === "copy" ? isPointer(operation.from) : true) &&
        (operation.op === "add" || operation.op === "replace" || operation.op === "test" ? operation.value !== undefined : true),
    )
  );
}

// A protocol's patch without the operations whose `op` RFC 6902 does not define (a newer
// protocol's), as AG-UI's client strips them; undefined when what is left is not a patch.
export function knownPatch(value) {
  if (!Array.isArray(value)) return undefined;
  const patch = value.filter((operation) => !isRecord(operation) || !isString(operation.op) || patchOperations.has(operation.op));
  return patch.length > 0 && isJsonPatch(patch) ? patch : undefined;
}

// The session error codes (the core's table); a protocol's own code is kept only when it is one of them.
const sessionErrorCodes = new Set(ERROR_CODES);
export const isSessionErrorCode = (value) => sessionErrorCodes.has(value);
