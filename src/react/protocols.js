// The wire protocols the hook speaks. Each says how to read a response into frames, how to turn
// a frame into session actions (a fresh translator per run: some protocols carry state across
// frames), what the response's content type is, and what to send by default.
//
//   actions      this package's own NDJSON: one SessionAction a line ("part" or "toolPhase")
//   ai-sdk       the Vercel AI SDK UI message stream (server-sent events, up to [DONE])
//   ag-ui        AG-UI events over server-sent events; the body is a RunAgentInput
//   chat-stream  the NDJSON ChatStreamEvent frames of a chat turn (seed 001)

import { createAgUiTranslator, readAgUiStream, toAgUiInput } from "chat-session-reducer/ag-ui";
import { fromAiSdkChunk, readAiSdkStream, toAiSdkMessages } from "chat-session-reducer/ai-sdk";
import { createChatStreamTranslator, readNdjson } from "chat-session-reducer/chat-stream";

/** The agent may only stream parts and tool phases; send, stop, retry and reset are the user's. */
const AGENT_ACTION_TYPES = new Set(["part", "toolPhase"]);

function agentAction(frame) {
  const type = frame !== null && typeof frame === "object" ? frame.type : undefined;
  if (!AGENT_ACTION_TYPES.has(type)) {
    throw Object.assign(new TypeError('frame: expected a "part" or "toolPhase" action'), { code: "invalid", path: "frame.type" });
  }
  return [frame];
}

const PROTOCOLS = {
  actions: {
    accept: "application/x-ndjson",
    read: readNdjson,
    translator: () => agentAction,
    body: ({ session }) => ({ messages: session.messages }),
  },
  "ai-sdk": {
    accept: "text/event-stream",
    read: readAiSdkStream,
    translator: () => (chunk) => fromAiSdkChunk(chunk),
    body: ({ session, chatId }) => ({ id: chatId, messages: toAiSdkMessages(session.messages) }),
  },
  "ag-ui": {
    accept: "text/event-stream",
    read: readAgUiStream,
    translator: createAgUiTranslator,
    body: ({ session, chatId, runId }) => ({
      threadId: chatId,
      runId,
      ...toAgUiInput(session),
      state: session.agentState ?? {},
      tools: [],
      context: [],
      forwardedProps: {},
    }),
  },
  "chat-stream": {
    accept: "application/x-ndjson",
    read: readNdjson,
    translator: createChatStreamTranslator,
    body: ({ session }) => ({ messages: session.messages }),
  },
};

const PROTOCOL_NAMES = Object.keys(PROTOCOLS);

export function protocolNamed(name) {
  const protocol = Object.hasOwn(PROTOCOLS, name) ? PROTOCOLS[name] : undefined;
  if (protocol === undefined) {
    throw Object.assign(new TypeError(`options.protocol: expected one of ${PROTOCOL_NAMES.join(", ")}`), {
      code: "invalid",
      path: "options.protocol",
    });
  }
  return protocol;
}
