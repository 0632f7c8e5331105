// Reads an action, a state or a message list the caller passed in, checks it against the
// package's types, and encodes what the core needs of it as numbers and strings for the Rust
// decoder (src/wasm/decode.rs, which documents the encoding). Read here, a value costs no
// crossing of the wasm boundary per field, and whatever a caller's getter or Proxy throws is
// caught here, so no exception unwinds through wasm frames.
//
// Bad input throws a TypeError with `code: "invalid"` and `path`, its message starting with the
// path (`action.part.id: expected a string`), naming the first thing that is wrong in the order
// the fields are read. Texts and JSON payloads are not encoded: the core only learns whether a
// text is empty and whether a JSON value is present; they stay in the caller's objects.
import { invalidInput } from "../shared/coded-error.js";
import { patchProblem } from "./json.js";
// The tables, then the messages that src/core/check.rs gives for the same problems, all
// generated from src/core/protocol.rs.
import {
  ACTION_TYPES, ERROR_CODES, FINISH_REASONS, MAX_BATCH_NESTING, MAX_BRANCH_NESTING, MAX_NESTING, MESSAGE_PART_TYPES,
  OPEN_TOOL_STATES, PART_TYPES, ROLES, STATUSES, TOOL_STATES,
  ACTIVE_IN_RANGE, AFTER_IN_BRANCH, AFTER_IN_PAGE, AFTER_ON_PATH, BATCHES_NEST_DEEPER, BRANCHES_NEST_DEEPER, DATA_OR_PATCH,
  ERROR_ONLY_IN_ERROR, ERROR_REQUIRED, FORKS_IN_ORDER, LIVE_ALTERNATIVE, OPEN_CALL_IN_BRANCH, OPEN_CALL_IN_HISTORY,
  REQUIRED_WITHOUT,
  REQUIRED_WITH_PATCH, RUNS_NEST_DEEPER, SET_ASIDE_ALTERNATIVE, SNAPSHOT_OR_PATCH, TOP_LEVEL_ONLY, TWO_ALTERNATIVES,
  USER_PART_TYPES,
} from "./protocol.js";

// A value at `path`, or at its field `key`, that is not of its type. Paths are only built for
// an error: reading a field costs no string.
class InputError {
  constructor(path, problem, key) {
    this.path = where(path, key);
    this.problem = problem;
  }
}

function where(path, key) {
  return key === undefined ? path : `${path}.${key}`;
}

// The encoding being written: `length` codes in `codes`, the strings the core compares joined
// in `text`, `strings` of them, and a batch's actions in `leaves`.
let codes = new Int32Array(0);
let length = 0;
let text = "";
let strings = 0;
let leaves = null;
// The last finished read's strings and batch actions, until decode.rs takes them (right after the
// read returns, before any code of the caller's can run).
let readText = "";
let readBatch = null;
// The problem a call open in the messages being read is (a branch's, v4 older history), or null.
let closedCalls = null;
// The problem of a top-level fork's `after` that names none of its messages (v4: a page's).
let afterProblem = AFTER_ON_PATH;

// The encoding buffers not in use, kept so that a read makes no new one (a typed array's memory
// is allocated outside the engine's heap, slowly): a read takes one, and a getter of the
// caller's that reads again in the middle of it takes another. One that grew past KEPT_CODES (a
// large state's) is left to the collector.
const spareCodes = [];
const KEPT_CODES = 1 << 16;

function put(code) {
  if (length === codes.length) {
    const grown = new Int32Array(codes.length * 2);
    grown.set(codes);
    codes = grown;
  }
  codes[length++] = code;
}

const NOTHING = new Int32Array(0);
const NO_BYTES = new Uint8Array(0);

const THREW = "could not be read (its getter threw)";

// `object[key]`, a getter or Proxy trap that throws reported at its path.
function get(object, path, key) {
  try {
    return object[key];
  } catch {
    throw new InputError(path, THREW, key);
  }
}

// An object that is not an array (an array of another realm passes, and then misses the
// fields of an object; so does a Proxy whose getPrototypeOf trap throws, and then its first
// field read names the trap).
function object(value, path, key) {
  if (typeof value !== "object" || value === null || isArray(value)) throw new InputError(path, "expected an object", key);
  return value;
}

function isArray(value) {
  try {
    return value instanceof Array;
  } catch {
    return false;
  }
}

// An item is read under this marker as its path; `items` puts the item's own path in its place
// when an error comes out, so reading a list builds no path string per item.
const ITEM = "\u0000";

// Each item of the array `value[key]` (`key` undefined: `value` itself), read by
// `each(item, ITEM, extra)`. Its `length` is only a loop bound: a sparse array claims any
// length, and its first hole is an error. Returns the length.
function items(value, path, key, each, extra) {
  let length;
  try {
    length = Array.isArray(value) ? value.length : -1;
  } catch {
    throw new InputError(path, THREW, key);
  }
  if (length < 0) throw new InputError(path, "expected an array", key);
  for (let index = 0; index < length; index++) {
    let item;
    try {
      item = value[index];
    } catch {
      throw new InputError(`${where(path, key)}[${index}]`, THREW);
    }
    try {
      each(item, ITEM, extra);
    } catch (error) {
      if (error instanceof InputError && error.path.startsWith(ITEM)) {
        error.path = `${where(path, key)}[${index}]${error.path.slice(ITEM.length)}`;
      }
      throw error;
    }
  }
  return length;
}

// An array's items, their count first.
function list(value, path, key, each, extra) {
  const count = length;
  put(0);
  const read = items(value, path, key, each, extra);
  // Only now: reading the items may have moved `codes` to a larger array.
  codes[count] = read;
  return read;
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/;

// Whether a string is well-formed UTF-16: natively where the runtime can (ES2024), else by
// encodeURIComponent, which refuses a lone surrogate, when the string has a surrogate at all.
const wellFormed = typeof "".isWellFormed === "function"
  ? (value) => value.isWellFormed()
  : (value) => {
    if (!LONE_SURROGATE.test(value)) return true;
    try {
      encodeURIComponent(value);
      return true;
    } catch {
      return false;
    }
  };

// A string as the core compares it (ids, names, prompts), kept exact: one that is not
// well-formed UTF-16, or that starts with U+FFFF, becomes U+FFFF and its code units in hex,
// distinct from every other string (Rust strings cannot hold a lone surrogate).
function exactForm(value) {
  if (value.charCodeAt(0) !== 0xffff && wellFormed(value)) return value;
  let escaped = "\uFFFF";
  for (let index = 0; index < value.length; index++) escaped += value.charCodeAt(index).toString(16).padStart(4, "0");
  return escaped;
}

function putString(value) {
  const exact = exactForm(value);
  put(exact.length);
  text += exact;
  strings++;
}

function string(value, path, key) {
  if (typeof value !== "string") throw new InputError(path, "expected a string", key);
  putString(value);
}

function optionalString(value, path, key) {
  if (value === undefined) put(-1);
  else string(value, path, key);
}

function boolean(value, path, key) {
  if (typeof value !== "boolean") throw new InputError(path, "expected a boolean", key);
  put(value ? 1 : 0);
}

function optionalBoolean(value, path, key) {
  if (value === undefined) put(-1);
  else boolean(value, path, key);
}

// A text: only whether it is empty is encoded (1 empty, 0 not).
function textField(value, path, key) {
  if (typeof value !== "string") throw new InputError(path, "expected a string", key);
  put(value === "" ? 1 : 0);
}

function optionalText(value, path, key) {
  if (value === undefined) put(-1);
  else textField(value, path, key);
}

// A JSON payload: it only has to be present.
function json(value, path, key) {
  if (value === undefined) throw new InputError(path, "expected a JSON value", key);
}

function optionalJson(value) {
  put(value === undefined ? 0 : 1);
}

// An RFC 6902 JSON Patch, checked here and applied by apply.js.
function jsonPatch(value, path, key) {
  let problem;
  try {
    problem = patchProblem(value);
  } catch {
    throw new InputError(path, THREW, key);
  }
  if (problem !== null) throw new InputError(where(path, key) + problem[0], problem[1]);
}

function optionalJsonPatch(value, path, key) {
  if (value !== undefined) jsonPatch(value, path, key);
  put(value === undefined ? 0 : 1);
}

// One of `options` (a table of protocol.js), encoded as its index, its code.
function literal(value, options, path, key) {
  const index = options.indexOf(value);
  if (index < 0) throw new InputError(path, `expected one of ${options.map((name) => `"${name}"`).join(", ")}`, key);
  put(index);
}

function optionalLiteral(value, options, path, key) {
  if (value === undefined) put(-1);
  else literal(value, options, path, key);
}

// Runs a read and returns its codes, or throws the coded error. A getter of the caller's may
// call the reducer in the middle of a read: the read under way is put aside and resumed after.
function encode(read) {
  const outerCodes = codes;
  const outerLength = length;
  const outerText = text;
  const outerStrings = strings;
  const outerLeaves = leaves;
  const outerClosedCalls = closedCalls;
  const outerAfterProblem = afterProblem;
  codes = spareCodes.pop() ?? new Int32Array(256);
  length = 1;
  text = "";
  strings = 0;
  leaves = null;
  closedCalls = null;
  afterProblem = AFTER_ON_PATH;
  try {
    read();
    codes[0] = strings;
    readText = text;
    readBatch = leaves;
    // A view of a buffer handed back below: the glue copies it into the module before anything
    // else runs.
    return codes.subarray(0, length);
  } catch (error) {
    if (error instanceof InputError) throw invalidInput(error.path, error.problem);
    throw error;
  } finally {
    if (codes.length <= KEPT_CODES) spareCodes.push(codes);
    codes = outerCodes;
    length = outerLength;
    text = outerText;
    strings = outerStrings;
    leaves = outerLeaves;
    closedCalls = outerClosedCalls;
    afterProblem = outerAfterProblem;
  }
}

/** An action's encoding; empty for one of a type this version does not know, unless `refuse`. */
export function readAction(action, refuse) {
  let known = true;
  const encoded = encode(() => {
    known = actionFields(action, "action", refuse);
  });
  return known ? encoded : NOTHING;
}

/**
 * `checkAction`: the action, once this reader (the reducer's) accepts it, a type this version
 * does not know refused; its encoding is dropped, so checking costs no call into the module.
 */
export function checkAction(action) {
  readAction(action, true);
  readText = "";
  readBatch = null;
  return action;
}

/** A state's encoding. */
export function readState(state) {
  return encode(() => sessionState(state, "state", 0));
}

/** A message list's encoding. */
export function readMessages(messages) {
  return encode(() => messageList(messages, "messages", undefined, 0));
}

/** A tool error's encoding (`isCancelled`). */
export function readToolError(error) {
  return encode(() => toolError(error, "error"));
}

const UTF8 = new TextEncoder();
let stringBytes = new Uint8Array(1024);

/** The strings of the last read, joined, as UTF-8 (decode.rs splits them by the lengths in the
 *  codes): encoded natively, where handing over a string would copy it character by character. */
export function readStrings() {
  const joined = readText;
  readText = "";
  // Most actions of a streamed reply have none: no call into the encoder for them.
  if (joined === "") return NO_BYTES;
  // UTF-8 takes at most 3 bytes per UTF-16 code unit; the buffer is reused as `spareCodes` are.
  const buffer = joined.length * 3 <= stringBytes.length ? stringBytes : new Uint8Array(joined.length * 3);
  if (buffer.length <= KEPT_CODES * 4) stringBytes = buffer;
  return buffer.subarray(0, UTF8.encodeInto(joined, buffer).written);
}

/** The actions of the last read's batch, nested batches flattened, in order. */
export function readLeaves() {
  const batch = readBatch;
  readBatch = null;
  return batch;
}

// Encodes an action; false for one of a type not known here, when it is skipped.
function actionFields(value, path, refuse) {
  const action = object(value, path);
  const kind = get(action, path, "type");
  if (!refuse && typeof kind === "string" && !ACTION_TYPES.includes(kind)) return false;
  literal(kind, ACTION_TYPES, path, "type");
  switch (kind) {
    case "send":
      string(get(action, path, "id"), path, "id");
      textField(get(action, path, "text"), path, "text");
      userParts(get(action, path, "parts"), path, "parts");
      optionalJson(get(action, path, "metadata"));
      break;
    case "unqueue":
      string(get(action, path, "id"), path, "id");
      break;
    case "load":
      sessionState(get(action, path, "state"), `${path}.state`, 0);
      break;
    case "prepend":
      history(action, path);
      break;
    case "part":
      streamPart(get(action, path, "part"), `${path}.part`);
      optionalString(get(action, path, "within"), path, "within");
      break;
    case "toolPhase":
      string(get(action, path, "name"), path, "name");
      literal(get(action, path, "state"), OPEN_TOOL_STATES, path, "state");
      optionalString(get(action, path, "prompt"), path, "prompt");
      break;
    case "edit":
      string(get(action, path, "messageId"), path, "messageId");
      string(get(action, path, "id"), path, "id");
      textField(get(action, path, "text"), path, "text");
      break;
    case "regenerate":
      optionalString(get(action, path, "messageId"), path, "messageId");
      break;
    case "switchBranch": {
      const after = get(action, path, "after");
      if (after === null) put(-1);
      else if (typeof after !== "string") throw new InputError(path, "expected a string or null", "after");
      else putString(after);
      const to = get(action, path, "to");
      if (!Number.isInteger(to)) throw new InputError(path, "expected an integer", "to");
      // A negative or huge index is outside every fork's alternatives: the switch is ignored.
      put(to >= 0 && to < 0x7fffffff ? to : 0x7fffffff);
      break;
    }
    case "batch": {
      leaves = [];
      const count = length;
      put(0);
      batch(get(action, path, "actions"), `${path}.actions`, refuse, 1);
      codes[count] = leaves.length;
      break;
    }
  }
  return true;
}

// v4: a prepend's messages (checked as a state's, no call open in them) and forks (as a state's,
// each after one of those messages).
function history(action, path) {
  const messages = get(action, path, "messages");
  closedCalls = OPEN_CALL_IN_HISTORY;
  try {
    messageList(messages, path, "messages", 0);
  } finally {
    closedCalls = null;
  }
  afterProblem = AFTER_IN_PAGE;
  try {
    forkList(get(action, path, "forks"), path, "forks", messages, 1);
  } finally {
    afterProblem = AFTER_ON_PATH;
  }
}

// The actions of a batch, nested batches flattened: each one encoded and kept in `leaves`.
function batch(value, path, refuse, depth) {
  if (depth > MAX_BATCH_NESTING) throw new InputError(path, `${BATCHES_NEST_DEEPER} ${MAX_BATCH_NESTING}`);
  items(value, path, undefined, (item, itemPath) => {
    if (get(object(item, itemPath), itemPath, "type") === "batch") {
      batch(get(item, itemPath, "actions"), `${itemPath}.actions`, refuse, depth + 1);
    } else if (actionFields(item, itemPath, refuse)) {
      leaves.push(item);
    }
  });
}

// A stream part: its type's code, its index in PART_TYPES (-1: a type not known here, ignored),
// then its fields, read in the order the core's type declares them.
function streamPart(value, path) {
  const part = object(value, path);
  const kind = get(part, path, "type");
  if (typeof kind !== "string") throw new InputError(path, "expected a string", "type");
  put(PART_TYPES.indexOf(kind));
  switch (kind) {
    case "message-start":
      string(get(part, path, "messageId"), path, "messageId");
      metadata(part, path);
      break;
    case "text-delta":
    case "reasoning":
    case "reasoning-delta":
      messageId(part, path);
      textOf(part, path);
      metadata(part, path);
      break;
    case "tool-input-delta":
      messageId(part, path);
      id(part, path);
      optionalString(get(part, path, "name"), path, "name");
      textOf(part, path);
      metadata(part, path);
      break;
    case "tool-input-end":
      id(part, path);
      metadata(part, path);
      break;
    case "tool-approval-request":
      idOr(part, path, "name");
      optionalString(get(part, path, "approvalId"), path, "approvalId");
      optionalString(get(part, path, "prompt"), path, "prompt");
      optionalBoolean(get(part, path, "automatic"), path, "automatic");
      optionalJson(get(part, path, "details"));
      break;
    case "tool-approval-response":
      idOr(part, path, "approvalId");
      boolean(get(part, path, "approved"), path, "approved");
      optionalString(get(part, path, "reason"), path, "reason");
      optionalJson(get(part, path, "input"));
      optionalJson(get(part, path, "output"));
      break;
    case "tool-call":
      messageId(part, path);
      id(part, path);
      string(get(part, path, "name"), path, "name");
      json(get(part, path, "input"), path, "input");
      metadata(part, path);
      break;
    case "tool-result":
      id(part, path);
      json(get(part, path, "output"), path, "output");
      optionalBoolean(get(part, path, "preliminary"), path, "preliminary");
      metadata(part, path);
      break;
    case "tool-error":
      id(part, path);
      toolError(get(part, path, "error"), `${path}.error`);
      metadata(part, path);
      break;
    case "finish":
      optionalLiteral(get(part, path, "reason"), FINISH_REASONS, path, "reason");
      break;
    case "error":
      string(get(part, path, "error"), path, "error");
      optionalLiteral(get(part, path, "code"), ERROR_CODES, path, "code");
      break;
    case "data":
      dataPart(part, path);
      break;
    case "step-start":
    case "step-reset":
      messageId(part, path);
      break;
    case "message-metadata":
      messageId(part, path);
      json(get(part, path, "metadata"), path, "metadata");
      break;
    case "snapshot":
      messageList(get(part, path, "messages"), path, "messages", 0);
      optionalBoolean(get(part, path, "exact"), path, "exact");
      break;
    case "agent-state": {
      const snapshot = get(part, path, "snapshot");
      optionalJson(snapshot);
      const patch = get(part, path, "patch");
      optionalJsonPatch(patch, path, "patch");
      if ((snapshot !== undefined) === (patch !== undefined)) {
        throw new InputError(path, SNAPSHOT_OR_PATCH);
      }
      break;
    }
  }
}

// The fields several stream parts have.
function messageId(part, path) {
  optionalString(get(part, path, "messageId"), path, "messageId");
}

function id(part, path) {
  string(get(part, path, "id"), path, "id");
}

function textOf(part, path) {
  textField(get(part, path, "text"), path, "text");
}

function metadata(part, path) {
  optionalJson(get(part, path, "metadata"));
}

// The call an approval part names: by `id`, or else by `other` (an optional string each), one
// of them required.
function idOr(part, path, other) {
  const partId = get(part, path, "id");
  optionalString(partId, path, "id");
  const alternative = get(part, path, other);
  optionalString(alternative, path, other);
  if (partId === undefined && alternative === undefined) {
    throw new InputError(path, `${REQUIRED_WITHOUT} ${other}`, "id");
  }
}

// A `data` stream part: exactly one of `data` and `patch`, and `patch` only with an `id`.
function dataPart(part, path) {
  messageId(part, path);
  metadata(part, path);
  const id = get(part, path, "id");
  optionalString(id, path, "id");
  const data = get(part, path, "data");
  optionalJson(data);
  const patch = get(part, path, "patch");
  optionalJsonPatch(patch, path, "patch");
  if ((data !== undefined) === (patch !== undefined)) {
    throw new InputError(path, DATA_OR_PATCH);
  }
  if (patch !== undefined && id === undefined) throw new InputError(path, REQUIRED_WITH_PATCH, "id");
  string(get(part, path, "name"), path, "name");
}

function sessionState(value, path, depth) {
  if (depth > MAX_NESTING) throw new InputError(path, `${RUNS_NEST_DEEPER} ${MAX_NESTING}`);
  const state = object(value, path);
  const messages = get(state, path, "messages");
  messageList(messages, path, "messages", depth);
  const status = get(state, path, "status");
  literal(status, STATUSES, path, "status");
  const error = get(state, path, "error");
  if (status === "error") {
    if (error === undefined) throw new InputError(path, ERROR_REQUIRED, "error");
    sessionError(error, `${path}.error`);
  } else {
    if (error !== undefined) throw new InputError(path, ERROR_ONLY_IN_ERROR, "error");
    put(-1);
  }
  optionalJson(get(state, path, "agentState"));
  const forks = get(state, path, "forks");
  if (depth > 0 && forks !== undefined) throw new InputError(path, TOP_LEVEL_ONLY, "forks");
  forkList(forks, path, "forks", messages, 1);
  // Only the top-level state has a queue (a sub-agent run queues nothing).
  const queue = get(state, path, "queue");
  if (queue === undefined) put(0);
  else if (depth > 0) throw new InputError(path, TOP_LEVEL_ONLY, "queue");
  else nonEmptyList(queue, path, "queue", queuedMessage);
}

// A list that is absent, never empty (a state's `queue`, a queued message's `parts`).
function nonEmptyList(value, path, key, each) {
  let empty;
  try {
    empty = !Array.isArray(value) || value.length === 0;
  } catch {
    throw new InputError(path, THREW, key);
  }
  if (empty) throw new InputError(path, "expected a non-empty array or no field", key);
  list(value, path, key, each);
}

function queuedMessage(value, path) {
  const queued = object(value, path);
  string(get(queued, path, "id"), path, "id");
  textField(get(queued, path, "text"), path, "text");
  const parts = get(queued, path, "parts");
  if (parts === undefined) put(0);
  else nonEmptyList(parts, path, "parts", userPart);
  optionalJson(get(queued, path, "metadata"));
}

// The parts `send` carries after its text: none, or text and data parts.
function userParts(value, path, key) {
  if (value === undefined) put(0);
  else list(value, path, key, userPart);
}

function userPart(value, path) {
  const kind = get(object(value, path), path, "type");
  if (kind !== "text" && kind !== "data") throw new InputError(path, USER_PART_TYPES, "type");
  agentPart(value, path, 0);
}

// v3: the forks on `messages` (the path's, or a branch's), holding branches at `depth`: absent or
// a non-empty list, in the order of their `after` on `messages`, each `after` once. The nesting
// is checked before descending, so a state nested deeper throws here, not on the stack's limit.
function forkList(value, path, key, messages, depth) {
  if (value === undefined) return put(0);
  if (depth > MAX_BRANCH_NESTING) throw new InputError(path, `${BRANCHES_NEST_DEEPER} ${MAX_BRANCH_NESTING}`, key);
  const ids = positions(messages, path);
  let last = -2;
  const count = list(value, path, key, (item, itemPath) => {
    last = fork(item, itemPath, ids, last, depth);
  });
  if (count === 0) throw new InputError(path, "expected a non-empty array or no field", key);
}

// Where each message of a list already read is, by id (the first with an id, which a fork's
// `after` names).
function positions(messages, path) {
  const ids = new Map();
  try {
    for (let index = messages.length - 1; index >= 0; index--) ids.set(messages[index].id, index);
  } catch {
    throw new InputError(path, THREW, "messages");
  }
  return ids;
}

// A fork after the one whose `after` is at `last` (-1: null, -2: none yet); returns where its own is.
function fork(value, path, ids, last, depth) {
  const fork = object(value, path);
  const after = get(fork, path, "after");
  let at = -1;
  if (after === null && depth === 1) put(-1);
  else {
    if (typeof after !== "string") throw new InputError(path, depth === 1 ? "expected a string or null" : "expected a string", "after");
    at = ids.get(after) ?? -2;
    if (at < 0) throw new InputError(path, depth === 1 ? afterProblem : AFTER_IN_BRANCH, "after");
    putString(after);
  }
  if (at <= last) throw new InputError(path, FORKS_IN_ORDER, "after");
  const active = get(fork, path, "active");
  if (!Number.isInteger(active) || active < 0) throw new InputError(path, "expected an integer index", "active");
  put(active);
  let index = 0;
  const count = list(get(fork, path, "alternatives"), path, "alternatives", (item, itemPath) => {
    if (index++ === active) {
      if (item !== null) throw new InputError(itemPath, LIVE_ALTERNATIVE);
      put(-1);
    } else {
      if (item === null) throw new InputError(itemPath, SET_ASIDE_ALTERNATIVE);
      put(0);
      branch(item, itemPath, depth);
    }
  });
  if (count < 2) throw new InputError(path, TWO_ALTERNATIVES, "alternatives");
  if (active >= count) throw new InputError(path, ACTIVE_IN_RANGE, "active");
  return at;
}

// A branch at `depth`: its messages (no call open in them) and the forks inside it.
function branch(value, path, depth) {
  const held = object(value, path);
  const messages = get(held, path, "messages");
  const outer = closedCalls;
  closedCalls = OPEN_CALL_IN_BRANCH;
  try {
    messageList(messages, path, "messages", 0);
  } finally {
    closedCalls = outer;
  }
  forkList(get(held, path, "forks"), path, "forks", messages, depth + 1);
}

function messageList(value, path, key, depth) {
  list(value, path, key, agentMessage, depth);
}

// The readers of a state's messages and parts, which run for every message of a state the module
// did not make, load their fields directly, where each load is cached for its object's shape, and
// not through `get`, whose load sees every field of every object: a getter or Proxy trap that
// throws is caught once per object, and `key` says which field it was.
function agentMessage(value, path, depth) {
  const message = object(value, path);
  let key = "id";
  try {
    string(message.id, path, key);
    key = "role";
    literal(message.role, ROLES, path, key);
    key = "parts";
    list(message.parts, path, key, agentPart, depth);
    key = "metadata";
    optionalJson(message.metadata);
  } catch (error) {
    throw fieldError(error, path, key);
  }
}

function agentPart(value, path, depth) {
  const part = object(value, path);
  /** @type {string | undefined} */
  let key = "type";
  try {
    const kind = part.type;
    literal(kind, MESSAGE_PART_TYPES, path, key);
    switch (kind) {
      case "text":
      case "reasoning":
        key = "text";
        textField(part.text, path, key);
        key = "metadata";
        optionalJson(part.metadata);
        break;
      case "tool":
        key = undefined;
        toolPart(part, path, depth);
        break;
      case "step":
        break;
      default:
        key = "name";
        string(part.name, path, key);
        key = "id";
        optionalString(part.id, path, key);
        key = "data";
        json(part.data, path, key);
        key = "metadata";
        optionalJson(part.metadata);
    }
  } catch (error) {
    throw fieldError(error, path, key);
  }
}

function toolPart(part, path, depth) {
  /** @type {string | undefined} */
  let key = "error";
  try {
    const error = part.error;
    key = "agent";
    const agent = part.agent;
    key = "approval";
    const approval = part.approval;
    key = "id";
    string(part.id, path, key);
    key = "name";
    string(part.name, path, key);
    key = "input";
    json(part.input, path, key);
    key = "inputText";
    optionalText(part.inputText, path, key);
    key = "state";
    const state = part.state;
    literal(state, TOOL_STATES, path, key);
    if (closedCalls !== null && (state === "input-streaming" || OPEN_TOOL_STATES.includes(state))) {
      throw new InputError(path, closedCalls, key);
    }
    key = "output";
    optionalJson(part.output);
    key = undefined;
    if (error === undefined) put(-1);
    else {
      put(0);
      toolError(error, `${path}.error`);
    }
    key = "prompt";
    optionalString(part.prompt, path, key);
    key = undefined;
    if (approval === undefined) put(-1);
    else readApproval(approval, `${path}.approval`);
    if (agent === undefined) put(-1);
    else {
      put(0);
      sessionState(agent, `${path}.agent`, depth + 1);
    }
    key = "metadata";
    optionalJson(part.metadata);
  } catch (error) {
    throw fieldError(error, path, key);
  }
}

// What a reader's catch throws: its own InputError, or the exception of the field `key`'s getter
// or Proxy trap as one (`key` undefined: none was being read, so it is no caller's getter's).
function fieldError(error, path, key) {
  if (error instanceof InputError || key === undefined) return error;
  return new InputError(path, THREW, key);
}

function readApproval(value, path) {
  const approval = object(value, path);
  put(0);
  string(get(approval, path, "id"), path, "id");
  optionalBoolean(get(approval, path, "automatic"), path, "automatic");
  optionalJson(get(approval, path, "details"));
  optionalBoolean(get(approval, path, "approved"), path, "approved");
  optionalString(get(approval, path, "reason"), path, "reason");
}

function sessionError(value, path) {
  const error = object(value, path);
  put(0);
  string(get(error, path, "message"), path, "message");
  optionalLiteral(get(error, path, "code"), ERROR_CODES, path, "code");
}

function toolError(value, path) {
  const error = object(value, path);
  string(get(error, path, "message"), path, "message");
  optionalString(get(error, path, "code"), path, "code");
}
