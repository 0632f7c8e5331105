// Operations on the JSON values the package holds for the caller (metadata, data, agentState,
// a snapshot's messages): equality, metadata merging and RFC 6902 JSON Patch. Each returns the
// value it was given when nothing changes, and otherwise copies only the objects on the changed
// paths, so every untouched nested object keeps its identity. Arguments are never mutated.

export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Sets an own data property; `object.__proto__ = value` would set the prototype instead.
function setOwn(object, key, value) {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// Equality of JSON values: the same value, or arrays and objects whose members are equal
// (the order of an object's keys does not count).
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => hasOwn(b, key) && jsonEqual(a[key], b[key]));
}

// SPEC "any part's metadata": plain objects key by key, recursively; any other value replaces
// (an equal one keeps the held value).
export function mergeJson(held, incoming) {
  if (!isPlainObject(held) || !isPlainObject(incoming)) return jsonEqual(held, incoming) ? held : incoming;
  let merged = held;
  for (const key of Object.keys(incoming)) {
    const value = hasOwn(held, key) ? mergeJson(held[key], incoming[key]) : incoming[key];
    if (hasOwn(held, key) && value === held[key]) continue;
    if (merged === held) merged = { ...held };
    setOwn(merged, key, value);
  }
  return merged;
}

// ---- JSON Patch (RFC 6902) ----

const OPERATIONS = ["add", "remove", "replace", "move", "copy", "test"];

function isPointer(value) {
  return typeof value === "string" && (value === "" || value[0] === "/") && !/~[^01]|~$/.test(value);
}

// What is wrong with a patch, as [the path below the patch, the problem], or null. Called by
// the reader (src/wasm/read.js) so that a malformed patch is bad input, named by its path.
export function patchProblem(patch) {
  if (!Array.isArray(patch)) return ["", "expected an array of JSON Patch operations"];
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index];
    const at = `[${index}]`;
    if (!isPlainObject(operation)) return [at, "expected an object"];
    const { op } = operation;
    if (!OPERATIONS.includes(op)) return [`${at}.op`, `expected one of ${OPERATIONS.map((name) => `"${name}"`).join(", ")}`];
    if (!isPointer(operation.path)) return [`${at}.path`, "expected a JSON Pointer (\"\" or starting with \"/\")"];
    if ((op === "move" || op === "copy") && !isPointer(operation.from)) {
      return [`${at}.from`, "expected a JSON Pointer (\"\" or starting with \"/\")"];
    }
    if ((op === "add" || op === "replace" || op === "test") && operation.value === undefined) {
      return [`${at}.value`, "expected a JSON value"];
    }
  }
  return null;
}

// A patch that does not apply: thrown inside, never out of applyJsonPatch.
class NotApplied extends Error {}

function tokens(pointer) {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

// An existing array index ("0", or digits without a leading zero, below the length).
function arrayIndex(array, token, allowEnd) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new NotApplied();
  const index = Number(token);
  if (index > array.length || (index === array.length && !allowEnd)) throw new NotApplied();
  return index;
}

function child(node, token) {
  if (Array.isArray(node)) return node[arrayIndex(node, token, false)];
  if (isPlainObject(node) && hasOwn(node, token)) return node[token];
  throw new NotApplied();
}

function valueAt(document, path) {
  return tokens(path).reduce(child, document);
}

// One application: the containers it made, changed in place rather than copied again.
class Patching {
  constructor(document) {
    this.document = document;
    this.fresh = new Set();
  }

  own(node) {
    if (this.fresh.has(node)) return node;
    if (Array.isArray(node)) node = node.slice();
    else if (isPlainObject(node)) node = { ...node };
    else throw new NotApplied();
    this.fresh.add(node);
    return node;
  }

  // Copies the containers down to the parent of the path's last token and lets `change` edit
  // that parent; the root itself (an empty path) is the value `change` returns.
  edit(path, change) {
    const keys = tokens(path);
    if (keys.length === 0) {
      this.document = change(undefined, undefined);
      return;
    }
    const last = keys.pop();
    const editAt = (node, depth) => {
      const copy = this.own(node);
      if (depth === keys.length) change(copy, last);
      else {
        const key = Array.isArray(copy) ? arrayIndex(copy, keys[depth], false) : keys[depth];
        setOwn(copy, key, editAt(child(copy, keys[depth]), depth + 1));
      }
      return copy;
    };
    this.document = editAt(this.document, 0);
  }

  add(path, value) {
    this.edit(path, (parent, key) => {
      if (parent === undefined) return value;
      if (Array.isArray(parent)) parent.splice(key === "-" ? parent.length : arrayIndex(parent, key, true), 0, value);
      else setOwn(parent, key, value);
    });
  }

  remove(path) {
    this.edit(path, (parent, key) => {
      if (parent === undefined) throw new NotApplied();
      if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
      else if (hasOwn(parent, key)) delete parent[key];
      else throw new NotApplied();
    });
  }

  replace(path, value) {
    valueAt(this.document, path);
    this.edit(path, (parent, key) => {
      if (parent === undefined) return value;
      setOwn(parent, Array.isArray(parent) ? arrayIndex(parent, key, false) : key, value);
    });
  }

  apply(operation) {
    const { op, path } = operation;
    if (op === "add") this.add(path, operation.value);
    else if (op === "remove") this.remove(path);
    else if (op === "replace") this.replace(path, operation.value);
    else if (op === "test") {
      if (!jsonEqual(valueAt(this.document, path), operation.value)) throw new NotApplied();
    } else {
      const { from } = operation;
      const value = valueAt(this.document, from);
      if (op === "copy") {
        // The value is about to be in two places (or inside itself, copied from an ancestor of
        // `path`): nothing made so far, the value included, may be changed in place again. The
        // containers the add makes on its way to `path` are new, and hold the value only once.
        this.fresh.clear();
        this.add(path, value);
      } else if (from !== path) {
        if (path.startsWith(`${from}/`)) throw new NotApplied();
        this.remove(from);
        this.add(path, value);
      }
    }
  }
}

// `document` with `patch` applied, all or nothing: `document` itself when the patch changes
// nothing (only passing tests), `undefined` when it does not apply (a failed test, a missing
// path). The patch is one that patchProblem found nothing wrong with.
export function applyJsonPatch(document, patch) {
  const patching = new Patching(document);
  try {
    for (const operation of patch) patching.apply(operation);
  } catch (error) {
    if (error instanceof NotApplied) return undefined;
    throw error;
  }
  return patching.document;
}
