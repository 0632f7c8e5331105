// The fuzz's checks of one reducer call against the baseline's: the same JSON, the same object
// exactly when the baseline's is the same, sharing wherever the baseline shares, coded errors.

const isObject = (value) => value !== null && typeof value === "object";

export function show(value) {
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    return `<${error.message}>`;
  }
}

// The first place where `actual` differs from `expected` as JSON data (keys in any order; a key
// holding `undefined` is a key), or undefined when they are equal.
export function firstDifference(expected, actual, path = "state") {
  if (expected === actual) return undefined;
  if (!isObject(expected) || !isObject(actual) || Array.isArray(expected) !== Array.isArray(actual)) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(expected)) {
    if (!Object.hasOwn(actual, key)) return `${path}.${key}: missing (expected ${show(expected[key])})`;
    const found = firstDifference(expected[key], actual[key], `${path}.${key}`);
    if (found !== undefined) return found;
  }
  const extra = Object.keys(actual).find((key) => !Object.hasOwn(expected, key));
  return extra === undefined ? undefined : `${path}.${extra}: unexpected ${show(actual[extra])}`;
}

// Where the baseline kept an object from the previous state (the same object at the same place),
// the package must have kept its own: returns the first place where it did not. A value the
// action gives, written in its place, is not a copy: values in actions are kept by reference,
// and an opaque value written again is not compared with the one it replaces (docs/decisions.md).
export function lostSharing(expectedBefore, expectedAfter, before, after, given, path = "state") {
  if (expectedAfter === expectedBefore) {
    return after === before || !isObject(after) || given.has(after) ? undefined : path;
  }
  if (![expectedBefore, expectedAfter, before, after].every(isObject)) return undefined;
  for (const key of Object.keys(expectedAfter)) {
    if (!Object.hasOwn(expectedBefore, key) || !Object.hasOwn(before, key) || !Object.hasOwn(after, key)) continue;
    const found = lostSharing(expectedBefore[key], expectedAfter[key], before[key], after[key], given, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Every object inside `value`, itself included.
export function objectsIn(value, into = new Set()) {
  if (isObject(value) && !into.has(value)) {
    into.add(value);
    for (const key of Object.keys(value)) objectsIn(value[key], into);
  }
  return into;
}

// What is wrong with an error thrown for bad input, or undefined: it must be an Error with a
// `code`, and one of bad input (code "invalid") has a `path` that its message starts with.
export function wrongErrorShape(error) {
  if (!(error instanceof Error)) return `threw ${show(error)}, not an Error`;
  if (typeof error.code !== "string") return `an Error without a code: ${error.constructor.name}: ${error.message}`;
  if (error.code === "invalid" && (typeof error.path !== "string" || !error.message.startsWith(error.path))) {
    return `code "invalid" without a path that the message starts with: path ${show(error.path)}, message ${show(error.message)}`;
  }
  return undefined;
}

export function deepFreeze(value) {
  if (isObject(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}
