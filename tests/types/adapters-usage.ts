// A user's TypeScript with the adapters, resolved by name through the manifest's `exports`.
// Lines marked @ts-expect-error must not compile.
import { sessionReducer, type SessionAction, type SessionState } from "chat-session-reducer";
import { fromAiSdkChunk, readAiSdkStream, toAiSdkMessages, type UIMessageLike } from "chat-session-reducer/ai-sdk";
import { createAgUiTranslator, fromAgUiMessages, readAgUiStream, toAgUiInput, type AgUiTranslator } from "chat-session-reducer/ag-ui";
import { createChatStreamTranslator, readNdjson, type StreamSource } from "chat-session-reducer/chat-stream";

declare const response: { ok: boolean; status: number; body: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> } } | null };
declare const lines: AsyncIterable<string>;

export async function aiSdkTurn(state: SessionState): Promise<SessionState> {
  for await (const chunk of readAiSdkStream(response)) {
    const actions: SessionAction[] = fromAiSdkChunk(chunk, { replay: true });
    state = actions.reduce(sessionReducer, state);
  }
  const body: UIMessageLike[] = toAiSdkMessages(state.messages);
  // @ts-expect-error the request is UIMessages, not session messages
  const wrong: SessionState["messages"] = body;
  void wrong;
  return state;
}

export async function agUiRun(state: SessionState): Promise<SessionState> {
  const translate: AgUiTranslator = createAgUiTranslator({ messages: state.messages });
  // @ts-expect-error the option is the session's messages, not AG-UI's
  createAgUiTranslator({ messages: [{ id: "u1", role: "user", content: "Hi" }] });
  for await (const event of readAgUiStream(lines)) state = translate(event).reduce(sessionReducer, state);
  const { messages, resume } = toAgUiInput(state, { interruptIds: ["i1"] });
  const history: SessionState["messages"] = fromAgUiMessages(messages);
  // @ts-expect-error resume entries are resolved or cancelled
  resume[0]!.status = "pending";
  return { ...state, messages: history };
}

export async function chatTurn(state: SessionState, source: StreamSource): Promise<SessionState> {
  const translate = createChatStreamTranslator();
  for await (const frame of readNdjson(source)) state = translate(frame).reduce(sessionReducer, state);
  // @ts-expect-error a translator takes one frame
  translate();
  return state;
}
