// Generated from src/core/protocol.rs by tests/protocol_js.rs; do not edit.
// Regenerate with `UPDATE_PROTOCOL=1 cargo test --test protocol_js`.

// How deep sub-agent runs nest, everywhere: in a state that is read (deeper is bad input)
// and in one built by `within` (a part that would start a deeper run is ignored). The run
// behind a top-level call is at depth 1. It bounds every walk of the tree.
export const MAX_NESTING = 64;

// v3: how deep branches nest (a fork of `forks` holds branches at depth 1): in a state that
// is read, deeper is bad input; an action that would nest deeper drops forks.
export const MAX_BRANCH_NESTING = 64;

// How deep batches nest in an action the binding reads (deeper is bad input); it reads a
// batch's actions flattened, so the core never sees the nesting.
export const MAX_BATCH_NESTING = 64;

// The error message of a call whose streamed input is not JSON (`tool-input-end`).
export const INVALID_INPUT = "The tool input is not valid JSON";

// The code of the `INVALID_INPUT` error.
export const INVALID_INPUT_CODE = "invalid_input";

// The error message of a refused approval that gives no reason.
export const DENIED = "Denied by the user";

// The code of a refused approval's error.
export const DENIED_CODE = "denied";

// The code of a tool error that means the user cancelled the call (`isCancelled`).
export const CANCELLED_CODE = "cancelled";

// The id the core makes up for an assistant message the stream names none for is this
// followed by the message's index in its run.
export const MADE_UP_ID_PREFIX = "assistant-";

// v4: the problem of a prepended call whose id a call of the conversation (or an earlier
// one of the page) already has; the core finds it (`Refusal`), the package's path is made
// in JavaScript.
export const CALL_ID_TAKEN = "expected a call id not already in the conversation";

// An approval request without `id` names its call by `name`, a response by `approvalId`:
// followed by the field's name.
export const REQUIRED_WITHOUT = "required when there is no";

// A `data` part: one of `data` and `patch`.
export const DATA_OR_PATCH = "expected exactly one of data and patch";

// An `agent-state` part: one of `snapshot` and `patch`.
export const SNAPSHOT_OR_PATCH = "expected exactly one of snapshot and patch";

// A `data` part's `patch` updates the part of its `id`.
export const REQUIRED_WITH_PATCH = "required with patch";

// The parts of `send` and of a queued message.
export const USER_PART_TYPES = "expected one of \"text\", \"data\"";

// Followed by `MAX_NESTING`.
export const RUNS_NEST_DEEPER = "sub-agent runs nest deeper than";

// Followed by `MAX_BRANCH_NESTING`.
export const BRANCHES_NEST_DEEPER = "branches nest deeper than";

// Followed by `MAX_BATCH_NESTING`.
export const BATCHES_NEST_DEEPER = "batches nest deeper than";

// A state's `error`, when its `status` is `"error"`.
export const ERROR_REQUIRED = "required when status is \"error\"";

// A state's `error`, when its `status` is not `"error"`.
export const ERROR_ONLY_IN_ERROR = "present only when status is \"error\"";

// `forks` or `queue` in a sub-agent run.
export const TOP_LEVEL_ONLY = "present only in the top-level state";

// A call of a branch that is running, waiting for confirmation or streaming its input.
export const OPEN_CALL_IN_BRANCH = "expected no open call in a branch";

// A top-level fork's `after` that names no message of the path.
export const AFTER_ON_PATH = "expected the id of a message of the path";

// v4: a call of a prepended message that is running, waiting for confirmation or
// streaming its input (older history has no live call).
export const OPEN_CALL_IN_HISTORY = "expected no open call in older history";

// v4: a prepended fork's `after` that names none of the prepended messages.
export const AFTER_IN_PAGE = "expected the id of one of the given messages";

// A nested fork's `after` that names no message of its branch.
export const AFTER_IN_BRANCH = "expected the id of a message of its branch";

// Forks in the order of their `after`, each `after` once.
export const FORKS_IN_ORDER = "expected after the previous fork's, in path order";

// The alternative at `active` is the path's (null).
export const LIVE_ALTERNATIVE = "expected null (the live alternative, at active)";

// Every other alternative is a branch.
export const SET_ASIDE_ALTERNATIVE = "expected a branch (null only at active)";

// A fork's `alternatives`.
export const TWO_ALTERNATIVES = "expected at least two alternatives";

// A fork's `active`.
export const ACTIVE_IN_RANGE = "expected an index of alternatives";

// The types of a `SessionAction`.
export const ACTION_TYPES = ["send", "part", "toolPhase", "stop", "retry", "reset", "continue", "batch", "edit", "regenerate", "switchBranch", "unqueue", "load", "prepend"];

// The types of an `AgentStreamPart` (read.js writes -1 for a type this version does not
// know).
export const PART_TYPES = ["message-start", "text-delta", "reasoning", "tool-call", "tool-result", "tool-error", "step-finish", "finish", "error", "reasoning-delta", "tool-input-delta", "tool-input-end", "tool-approval-request", "tool-approval-response", "data", "message-metadata", "snapshot", "agent-state", "step-start", "step-reset"];

// The types of a message's `AgentPart`.
export const MESSAGE_PART_TYPES = ["text", "reasoning", "tool", "data", "step"];

// A message's `role`.
export const ROLES = ["user", "assistant"];

// A run's `status`.
export const STATUSES = ["idle", "streaming", "error"];

// A call's `state`.
export const TOOL_STATES = ["running", "awaiting-confirmation", "done", "error", "cancelled", "input-streaming"];

// The `state` a `toolPhase` action sets.
export const OPEN_TOOL_STATES = ["running", "awaiting-confirmation"];

// A `finish` part's `reason`.
export const FINISH_REASONS = ["stop", "aborted", "length", "tool-calls", "content-filter", "other"];

// A run error's `code`.
export const ERROR_CODES = ["chat_disabled", "rate_limited", "bad_request", "network"];

// The patches (src/core/patch.rs), as src/wasm/write.rs encodes them for apply.js.
export const PATCH_PUSH_MESSAGE = 0;
export const PATCH_PUSH_PART = 1;
export const PATCH_APPEND_TEXT = 2;
export const PATCH_SET_STATUS = 3;
export const PATCH_SET_CALL = 4;
export const PATCH_START_AGENT = 5;
export const PATCH_TRUNCATE = 6;
export const PATCH_RESET = 7;
export const PATCH_APPEND_INPUT = 8;
export const PATCH_MERGE_METADATA = 9;
export const PATCH_UPDATE_DATA = 10;
export const PATCH_AGENT_STATE = 11;
export const PATCH_SNAPSHOT = 12;
export const PATCH_SOURCE = 13;
export const PATCH_SET_ASIDE = 14;
export const PATCH_SWITCH_BRANCH = 15;
export const PATCH_KEEP_FORKS = 16;
export const PATCH_ENQUEUE = 17;
export const PATCH_SEND_QUEUE = 18;
export const PATCH_UNQUEUE = 19;
export const PATCH_LOAD = 20;
export const PATCH_CUT_PARTS = 21;
export const PATCH_PREPEND = 22;

// The message a `PushMessage` patch appends.
export const NEW_MESSAGE_USER = 0;
export const NEW_MESSAGE_ASSISTANT = 1;
export const NEW_MESSAGE_ASSISTANT_WITH_METADATA = 2;

// The part a `PushPart` patch appends.
export const NEW_PART_TEXT = 0;
export const NEW_PART_REASONING = 1;
export const NEW_PART_TOOL = 2;
export const NEW_PART_STREAMING_TOOL = 3;
export const NEW_PART_DATA = 4;
export const NEW_PART_STEP = 5;

// What a `SetCall` patch writes besides the call's state.
export const CHANGE_PHASE = 0;
export const CHANGE_RESULT = 1;
export const CHANGE_ERROR = 2;
export const CHANGE_CANCEL = 3;
export const CHANGE_PROGRESS = 4;
export const CHANGE_CALLED = 5;
export const CHANGE_INPUT_PARSED = 6;
export const CHANGE_INPUT_INVALID = 7;
export const CHANGE_APPROVAL_ASKED = 8;
export const CHANGE_APPROVED = 9;
export const CHANGE_DENIED = 10;
