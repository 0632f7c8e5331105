// The Vercel AI SDK's UI message stream, written with the `ai` package's own server helpers
// (createUIMessageStream, JsonToSseTransformStream and its headers, as
// createUIMessageStreamResponse uses them). The request carries UIMessages
// (toAiSdkMessages on the page); the agent reads back what it needs: texts, calls, answers.
// The AI SDK has no nested runs: a sub-agent's progress streams as the delegate call's
// preliminary output, as an AI SDK tool that yields does.

import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS, createUIMessageStream } from "ai";

export const contentType = UI_MESSAGE_STREAM_HEADERS["content-type"];

const textOutput = (text) => ({ content: [{ type: "text", text }] });

// A UI tool part's state as the session holds it.
function toolPart(part) {
  const call = { type: "tool", id: part.toolCallId, name: part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length), input: part.input ?? null };
  const approval = part.approval?.approved === undefined ? {} : { approval: { id: part.approval.id, approved: part.approval.approved } };
  switch (part.state) {
    case "output-available":
      return { ...call, state: "done", output: part.output, ...approval };
    case "output-denied":
      return { ...call, state: "error", error: { message: "Denied by the user", code: "denied" }, ...approval };
    case "approval-responded":
      return part.approval.approved ? { ...call, state: "running", ...approval } : { ...call, state: "error", error: { message: "Denied", code: "denied" }, ...approval };
    case "output-error":
      return { ...call, state: "error", error: { message: part.errorText } };
    default:
      return { ...call, state: "running" };
  }
}

export function messagesOf(body) {
  if (!Array.isArray(body?.messages)) return null;
  return body.messages.map((message) => ({
    id: message.id,
    role: message.role,
    parts: (message.parts ?? []).flatMap((part) => {
      if (part.type === "text") return [{ type: "text", text: part.text }];
      if (part.type.startsWith("tool-") || part.type === "dynamic-tool") return [toolPart(part)];
      return [];
    }),
  }));
}

// Markers the scenario writes through the stream, so they keep their place among the chunks.
const GARBLED = "demo-garbled";
const DROP = "demo-drop";

export function createWire(res) {
  let writer;
  let finished;
  const done = new Promise((resolve) => (finished = resolve));
  const stream = createUIMessageStream({
    execute(options) {
      writer = options.writer;
      return done;
    },
  }).pipeThrough(new JsonToSseTransformStream());
  res.writeHead(200, UI_MESSAGE_STREAM_HEADERS);
  const pumped = (async () => {
    for await (const event of stream) {
      if (res.destroyed) return;
      if (event.includes(`"type":"${DROP}"`)) return void res.destroy();
      res.write(event.includes(`"type":"${GARBLED}"`) ? 'data: {"type": "text-delta", "delta": \n\n' : event);
    }
    res.end();
  })();

  let textId;
  let blocks = 0;
  const inputs = new Map();
  const nested = new Map();
  const closeText = () => {
    if (textId !== undefined) writer.write({ type: "text-end", id: textId });
    textId = undefined;
  };
  // A sub-agent's run: its text so far and its calls, as the delegate call's preliminary output.
  const subAgent = (part, within) => {
    const lines = nested.get(within) ?? [""];
    if (part.type === "text-delta") lines[lines.length - 1] += part.text;
    else if (part.type === "tool-call") lines.push(`→ ${part.name} ${JSON.stringify(part.input)}`, "");
    else return;
    nested.set(within, lines);
    writer.write({ type: "tool-output-available", toolCallId: within, output: textOutput(lines.filter(Boolean).join("\n")), preliminary: true });
  };

  const chunks = {
    "message-start": (part) => writer.write({ type: "start", messageId: part.messageId }),
    "text-delta": (part) => {
      if (textId === undefined) writer.write({ type: "text-start", id: (textId = `text-${(blocks += 1)}`) });
      writer.write({ type: "text-delta", id: textId, delta: part.text });
    },
    reasoning: (part) => {
      closeText();
      const id = `reasoning-${(blocks += 1)}`;
      writer.write({ type: "reasoning-start", id });
      writer.write({ type: "reasoning-delta", id, delta: part.text });
      writer.write({ type: "reasoning-end", id });
    },
    "tool-call": (part) => {
      closeText();
      writer.write({ type: "tool-input-available", toolCallId: part.id, toolName: part.name, input: part.input });
    },
    "tool-input-delta": (part) => {
      closeText();
      if (!inputs.has(part.id)) {
        inputs.set(part.id, { name: part.name, text: "" });
        writer.write({ type: "tool-input-start", toolCallId: part.id, toolName: part.name });
      }
      inputs.get(part.id).text += part.text;
      writer.write({ type: "tool-input-delta", toolCallId: part.id, inputTextDelta: part.text });
    },
    "tool-input-end": (part) => {
      const { name, text } = inputs.get(part.id);
      writer.write({ type: "tool-input-available", toolCallId: part.id, toolName: name, input: JSON.parse(text) });
    },
    "tool-result": (part) => writer.write({ type: "tool-output-available", toolCallId: part.id, output: part.output }),
    "tool-approval-request": (part) =>
      writer.write({ type: "tool-approval-request", approvalId: part.approvalId, toolCallId: part.id, ...(part.prompt === undefined ? {} : { reason: part.prompt }) }),
    finish: (part) => {
      closeText();
      writer.write({ type: "finish", finishReason: part.reason ?? "stop" });
    },
    error: (part) => {
      closeText();
      writer.write({ type: "error", errorText: part.error });
    },
  };

  return {
    part(part, within) {
      if (within !== undefined) subAgent(part, within);
      else chunks[part.type]?.(part);
    },
    garbled: () => writer.write({ type: GARBLED }),
    drop: () => writer.write({ type: DROP }),
    invalid() {
      throw new Error("the AI SDK stream carries chunks, not actions");
    },
    async end() {
      finished();
      await pumped;
    },
    abort: () => finished(),
  };
}
