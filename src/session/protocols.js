// The wire protocols the hook speaks. Each says how to read a response into frames, how to turn
// a frame into session actions (a fresh translator per run: some protocols carry state across
// frames; it is given the run's `onTransientData`), what the response's content type is (contentTypes.js), and
// what to send by default (`chatId` is the conversation's id, `startedBy` what started the run).
//
//   actions      this package's own NDJSON: one SessionAction a line ("part" or "toolPhase")
//   ai-sdk       the Vercel AI SDK UI message stream (server-sent events, up to [DONE])
//   ag-ui        AG-UI events over server-sent events; the body is a RunAgentInput
//   chat-stream  the NDJSON ChatStreamEvent frames of a chat turn (seed 001)
//
// The adapters behind them are imported when a protocol is first used, not with the hook: an app
// loads only the one it speaks (bundlers split each into a chunk of its own).

import { CONTENT_TYPES } from "./content-types.js";

/** The agent may only stream parts and tool phases; send, stop, retry and reset are the user's. */
const AGENT_ACTION_TYPES = new Set(["part", "toolPhase"]);

function agentAction(frame) {
  const type = frame !== null && typeof frame === "object" ? frame.type : undefined;
  if (!AGENT_ACTION_TYPES.has(type)) {
    throw Object.assign(new TypeError('frame: expected a "part" or "toolPhase" action'), { code: "invalid", path: "frame.type" });
  }
  return [frame];
}

const LOADERS = {
  actions: async () => {
    const { readNdjson } = await import("chat-session-reducer/chat-stream");
    return {
      accept: CONTENT_TYPES.actions,
      read: readNdjson,
      translator: () => agentAction,
      body: ({ session }) => ({ messages: session.messages }),
    };
  },
  "ai-sdk": async () => {
    const { fromAiSdkChunk, readAiSdkStream, toAiSdkMessages } = await import("chat-session-reducer/ai-sdk");
    return {
      accept: CONTENT_TYPES["ai-sdk"],
      read: readAiSdkStream,
      // Transient data parts reach the app's onData and never the session; a replay starts each message over.
      translator: ({ onTransientData, replay }) => (chunk) => fromAiSdkChunk(chunk, { onTransientData, replay }),
      // useChat's body: a server written for it may read `trigger` (a regenerate) and `messageId`.
      body: ({ session, chatId, startedBy }) => ({ id: chatId, messages: toAiSdkMessages(session.messages), ...startedBy }),
    };
  },
  "ag-ui": async () => {
    const { createAgUiTranslator, readAgUiStream, toAgUiInput } = await import("chat-session-reducer/ag-ui");
    return {
      accept: CONTENT_TYPES["ag-ui"],
      read: readAgUiStream,
      translator: createAgUiTranslator,
      // A response may carry several runs (a connect replays the thread's, then the active one).
      severalRuns: true,
      body: ({ session, chatId, runId }) => ({
        threadId: chatId,
        runId,
        ...toAgUiInput(session),
        state: session.agentState ?? {},
        tools: [],
        context: [],
        forwardedProps: {},
      }),
    };
  },
  "chat-stream": async () => {
    const { createChatStreamTranslator, readNdjson } = await import("chat-session-reducer/chat-stream");
    return {
      accept: CONTENT_TYPES["chat-stream"],
      read: readNdjson,
      translator: createChatStreamTranslator,
      body: ({ session }) => ({ messages: session.messages }),
    };
  },
};

// How each protocol that can reconnect to a run the server is still producing asks for it
// (resume.js): `{ url, method, body? }` from `{ api, id, body: () => the run's request body }`.
// The server answers 204 when no run is active, else replays the run from its start.
export const RESUME_REQUESTS = {
  // AI SDK 7's useChat({ resume: true }): GET {api}/{id}/stream.
  "ai-sdk": ({ api, id }) => ({ url: `${api}/${encodeURIComponent(id)}/stream`, method: "GET" }),
  // AG-UI leaves connecting to the server; this is CopilotKit's shape: POST {api}/connect with
  // the RunAgentInput of the thread.
  "ag-ui": ({ api, body }) => ({ url: `${api}/connect`, method: "POST", body: body() }),
};

/** Throws a coded TypeError when `name` is not a protocol the hook speaks. */
export function checkProtocolName(name) {
  if (!Object.hasOwn(LOADERS, name)) {
    throw Object.assign(new TypeError(`options.protocol: expected one of ${Object.keys(LOADERS).join(", ")}`), {
      code: "invalid",
      path: "options.protocol",
    });
  }
}

const loading = new Map();

/** The protocol of that name, once its adapter is loaded (a failed load is tried again next time). */
export function loadProtocol(name) {
  if (!loading.has(name)) {
    const loaded = LOADERS[name]();
    loading.set(name, loaded);
    loaded.catch(() => loading.delete(name));
  }
  return loading.get(name);
}
