// RFC 6902 JSON Patch for the baseline reducer (bench/baseline.mjs), written the immutable way:
// the document is never changed, and only the objects on the patched paths are copied.

// What applyJsonPatch returns for a patch that does not apply (a missing path, a failed test).
export const NOT_APPLIED = Symbol("not applied");

export function applyJsonPatch(document, operations) {
  let result = document;
  for (const operation of operations) {
    result = applyOperation(result, operation);
    if (result === NOT_APPLIED) return NOT_APPLIED;
  }
  return result;
}

function applyOperation(document, { op, path, from, value }) {
  const at = parsePointer(path);
  if (at === NOT_APPLIED) return NOT_APPLIED;
  switch (op) {
    case "add":
      return add(document, at, value);
    case "remove":
      return at.length === 0 ? NOT_APPLIED : editParent(document, at, removeFrom);
    case "replace":
      return at.length === 0 ? value : editParent(document, at, (container, key) =>
        has(container, key) ? setIn(container, key, value) : NOT_APPLIED);
    case "move": {
      const source = parsePointer(from);
      if (source === NOT_APPLIED) return NOT_APPLIED;
      const moved = get(document, source);
      if (moved === NOT_APPLIED) return NOT_APPLIED;
      if (from === path) return document;
      // A value cannot move into itself.
      if (path.startsWith(`${from}/`) || source.length === 0) return NOT_APPLIED;
      const removed = editParent(document, source, removeFrom);
      return removed === NOT_APPLIED ? NOT_APPLIED : add(removed, at, moved);
    }
    case "copy": {
      const source = parsePointer(from);
      const copied = source === NOT_APPLIED ? NOT_APPLIED : get(document, source);
      return copied === NOT_APPLIED ? NOT_APPLIED : add(document, at, copied);
    }
    case "test": {
      const found = get(document, at);
      return found !== NOT_APPLIED && jsonEqual(found, value) ? document : NOT_APPLIED;
    }
    default:
      return NOT_APPLIED;
  }
}

function add(document, at, value) {
  if (at.length === 0) return value;
  return editParent(document, at, (container, key) => {
    if (!Array.isArray(container)) return setIn(container, key, value);
    const index = key === "-" ? container.length : arrayIndex(key, container.length + 1);
    return index === NOT_APPLIED ? NOT_APPLIED : container.toSpliced(index, 0, value);
  });
}

function removeFrom(container, key) {
  if (!has(container, key)) return NOT_APPLIED;
  if (Array.isArray(container)) return container.toSpliced(Number(key), 1);
  const { [key]: _removed, ...rest } = container;
  return rest;
}

// RFC 6901: "" is the whole document; otherwise "/"-separated tokens with ~1 for "/" and ~0 for "~".
function parsePointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || !pointer.startsWith("/") || /~(?![01])/.test(pointer)) return NOT_APPLIED;
  return pointer.slice(1).split("/").map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

const isContainer = (value) => value !== null && typeof value === "object";

// An array index below `end`: digits without a leading zero.
function arrayIndex(key, end) {
  if (!/^(0|[1-9][0-9]*)$/.test(key)) return NOT_APPLIED;
  const index = Number(key);
  return index < end ? index : NOT_APPLIED;
}

function has(container, key) {
  if (!isContainer(container)) return false;
  if (Array.isArray(container)) return arrayIndex(key, container.length) !== NOT_APPLIED;
  return Object.hasOwn(container, key);
}

function get(document, at) {
  let value = document;
  for (const key of at) {
    if (!has(value, key)) return NOT_APPLIED;
    value = value[key];
  }
  return value;
}

// A write copies its path even when it writes what is there (SPEC: "only the objects on the
// patched paths are copied"); only a patch of tests changes nothing.
function setIn(container, key, value) {
  if (!isContainer(container)) return NOT_APPLIED;
  return Array.isArray(container) ? container.with(Number(key), value) : { ...container, [key]: value };
}

// Applies `edit(container, lastKey)` to the container at `at` without its last token, copying
// the containers on the way down; the same document when the edit changed nothing.
function editParent(document, at, edit, depth = 0) {
  if (depth === at.length - 1) return edit(document, at[depth]);
  const key = at[depth];
  if (!has(document, key)) return NOT_APPLIED;
  const child = editParent(document[key], at, edit, depth + 1);
  return child === NOT_APPLIED ? NOT_APPLIED : setIn(document, key, child);
}

// JSON equality: the same value whatever the order of object keys.
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}
