// Type-checked (never run): the core's types by a tool map and a data map, as an app renders and
// drives a typed conversation; see types.test.mjs. Every `@ts-expect-error` line must fail to
// compile (tsc reports an unused one as an error); the other lines show what narrowing gives.
import {
  branchAt,
  checkAction,
  loadSession,
  resumable,
  sessionReducer,
  type AgentMessage,
  type AgentPart,
  type DataPart,
  type FileData,
  type SessionAction,
  type SessionState,
  type ToolError,
  type ToolPart,
} from "chat-session-reducer";
import { fromAiSdkChunk, toAiSdkMessages } from "chat-session-reducer/ai-sdk";
import { fromAgUiMessages, toAgUiInput } from "chat-session-reducer/ag-ui";

type Tools = {
  deleteFile: { input: { path: string }; output: { ok: boolean } };
  search: { input: { query: string; limit?: number }; output: { hits: string[] } };
};
type Data = {
  weather: { city: string; temp: number };
};
type Chat = SessionState<Tools, Data>;

// A tool part narrows by `name` to its tool's input, and by `state` to the fields the state has.
export function toolLabel(part: ToolPart<Tools, Data>): string {
  if (part.name === "deleteFile") {
    if (part.state === "done") return `${part.input.path}: ${part.output.ok ? "deleted" : "kept"}`;
    if (part.state === "error") return `${part.input?.path ?? "?"}: ${part.error.message}`;
    if (part.state === "input-streaming") return `deleting ${part.inputText}`;
    if (part.state === "cancelled") return part.error === undefined ? "cancelled" : `cancelled: ${part.error.message}`;
    return `deleting ${part.input.path}`;
  }
  const hits: string[] | undefined = part.output?.hits;
  return part.state === "running" ? `searching ${part.input.query}` : `${hits?.length ?? 0} hits`;
}

export function mistakes(part: ToolPart<Tools, Data>) {
  // @ts-expect-error a misspelt tool name is no tool of the map
  if (part.name === "deleteFiel") return;
  if (part.name !== "deleteFile") return;
  if (part.state === "running") {
    // @ts-expect-error an input has the tool's own fields
    void part.input.file;
  }
  // @ts-expect-error the output is there once `done`: narrow by `state` first
  void part.output.ok;
  // @ts-expect-error the error is there once `error`: narrow by `state` first
  const message: string = part.error.message;
  void message;
  if (part.state === "input-streaming") {
    // @ts-expect-error the input is null while it streams (read `inputText`)
    void part.input.path;
  }
  if (part.state === "error") {
    // @ts-expect-error a failed call's input is null when its streamed input was not JSON
    void part.input.path;
    // @ts-expect-error the output is the tool's: `ok` is a boolean
    const ok: string | undefined = part.output?.ok;
    void ok;
  }
  // @ts-expect-error "finished" is not a state
  if (part.state === "finished") return;
}

// Every state handled: the switch is exhaustive over the union.
export function stateIcon(part: ToolPart<Tools, Data>): string {
  switch (part.state) {
    case "input-streaming":
    case "running":
      return "…";
    case "awaiting-confirmation":
      return part.prompt ?? "?";
    case "done":
      return "✓";
    case "error":
      return part.error.code === "denied" ? "denied" : "✗";
    case "cancelled": {
      const error: ToolError | undefined = part.error;
      return error === undefined ? "–" : "cancelled";
    }
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

// One tool's calls, for its own component.
export function DeleteFileCard({ part }: { part: ToolPart<Tools, Data, "deleteFile"> }): string {
  // @ts-expect-error only deleteFile calls
  if (part.name === "search") return "";
  return part.state === "done" ? String(part.output.ok) : part.name;
}

// Data parts narrow by name, with the AI SDK's sources and files built in.
export function dataLabel(part: DataPart<Data>): string {
  switch (part.name) {
    case "weather":
      return `${part.data.city}: ${part.data.temp}°`;
    case "source-url":
      return part.data.title ?? part.data.url;
    case "source-document":
      return `${part.data.title} (${part.data.mediaType})`;
    case "file":
    case "reasoning-file": {
      const file: FileData = part.data;
      return file.filename ?? file.url;
    }
  }
}

export function dataMistakes(part: DataPart<Data>) {
  // @ts-expect-error a misspelt data name
  if (part.name === "wether") return;
  // @ts-expect-error the data is the named part's: narrow by `name` first
  void part.data.temp;
  if (part.name === "source-url") {
    // @ts-expect-error a URL source has no mediaType
    void part.data.mediaType;
  }
}

// Messages, states and parts carry the maps through.
export function render(chat: Chat): string[] {
  return chat.messages.flatMap((message: AgentMessage<Tools, Data>) =>
    message.parts.map((part: AgentPart<Tools, Data>) => {
      if (part.type === "tool") return part.agent === undefined ? toolLabel(part) : `${part.name}: ${render(part.agent).join(" ")}`;
      if (part.type === "data") return dataLabel(part);
      return part.type === "step" ? "" : part.text;
    }),
  );
}

// The reducer keeps the state's maps; an adapter's actions (typed by no map) go in as they are.
declare const chunks: unknown[];
export function streamed(chat: Chat): Chat {
  let state: Chat = sessionReducer(chat, { type: "send", id: "u-1", text: "Delete /tmp/a" });
  // `reduce` is told the state's type: it infers none from a generic callback.
  for (const chunk of chunks) state = fromAiSdkChunk(chunk).reduce<Chat>(sessionReducer, state);
  for (const chunk of chunks) for (const action of fromAiSdkChunk(chunk)) state = sessionReducer(state, action);
  state = sessionReducer(state, checkAction(JSON.parse("{}")));
  state = sessionReducer(state, { type: "part", part: { type: "tool-call", id: "c-1", name: "deleteFile", input: { path: "/tmp/a" } } });
  state = sessionReducer(state, { type: "toolPhase", name: "search", state: "running" });
  return state;
}

export const typedActions: SessionAction<Tools, Data>[] = [
  { type: "part", part: { type: "tool-call", id: "c-1", name: "search", input: { query: "mugs" } } },
  { type: "part", part: { type: "tool-result", id: "c-1", output: { hits: ["a"] } } },
  { type: "part", part: { type: "data", name: "weather", data: { city: "Oslo", temp: 3 } } },
  { type: "part", part: { type: "data", name: "source-url", id: "s-1", data: { url: "https://example.com" } } },
  { type: "send", id: "u-2", text: "this", parts: [{ type: "data", name: "file", data: { mediaType: "image/png", url: "data:," } }] },
  // @ts-expect-error a call of a tool the map does not have
  { type: "part", part: { type: "tool-call", id: "c-2", name: "deleteFiles", input: { path: "/" } } },
  // @ts-expect-error a call's input is its tool's
  { type: "part", part: { type: "tool-call", id: "c-3", name: "deleteFile", input: { query: "/" } } },
  // @ts-expect-error a data part's data is its name's
  { type: "part", part: { type: "data", name: "weather", data: { city: "Oslo" } } },
  // @ts-expect-error a file attachment has a mediaType and a url
  { type: "send", id: "u-3", text: "this", parts: [{ type: "data", name: "file", data: { url: "data:," } }] },
];

// The package's functions that take a conversation take a typed one.
export function untypedToo(chat: Chat): void {
  const kept: AgentMessage<Tools, Data>[] = resumable(chat.messages);
  void kept;
  void branchAt(chat, 0);
  void toAiSdkMessages(chat.messages);
  void toAgUiInput(chat);
}

// Another agent's conversation is not this one's.
type SupportTools = { openTicket: { input: { subject: string }; output: { ticket: number } } };
export function otherAgent(support: SessionState<SupportTools>): void {
  // @ts-expect-error a conversation typed by other tools
  const chat: Chat = support;
  void chat;
}

export const stored: Chat | null = loadSession<Tools, Data>("chat");
export const fromServer: AgentMessage<Tools, Data>[] = fromAgUiMessages([]);

// A typed state literal: a done call has its output, a failed one its error.
export const literal: Chat = {
  status: "idle",
  messages: [
    {
      id: "a-1",
      role: "assistant",
      parts: [
        { type: "tool", id: "c-1", name: "deleteFile", input: { path: "/a" }, state: "done", output: { ok: true } },
        { type: "tool", id: "c-2", name: "search", input: null, inputText: "{", state: "error", error: { message: "The tool input is not valid JSON", code: "invalid_input" } },
        { type: "data", name: "weather", data: { city: "Oslo", temp: 3 } },
      ],
    },
  ],
};

export const missingOutput: Chat = {
  status: "idle",
  // @ts-expect-error a done call has its output
  messages: [{ id: "a-1", role: "assistant", parts: [{ type: "tool", id: "c-1", name: "deleteFile", input: { path: "/a" }, state: "done" }] }],
};

export const missingError: Chat = {
  status: "idle",
  // @ts-expect-error a failed call has its error
  messages: [{ id: "a-1", role: "assistant", parts: [{ type: "tool", id: "c-1", name: "search", input: { query: "q" }, state: "error" }] }],
};

// Without maps, names are strings and payloads JSON values, and `state` still narrows.
export function untypedLabel(part: ToolPart): string {
  if (part.state === "error") return `${part.name}: ${part.error.message}`;
  if (part.state === "done") return JSON.stringify(part.output);
  // @ts-expect-error the error is there once `error`
  return part.error.message;
}
