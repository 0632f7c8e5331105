// AG-UI messages and session messages, both ways. AG-UI keeps reasoning, tool results and
// activities as messages of their own and call arguments as JSON text; the session keeps
// them as parts of assistant messages, results folded into their calls.
import { INVALID_INPUT, INVALID_INPUT_CODE } from "../../wasm/protocol.js";
import { isRecord, isString } from "../shared/fields.js";
import { interruptOf, isQuestionCall } from "./interrupts.js";

const mediaTypes = new Set(["image", "audio", "video", "document"]);

// The protocol's own fields on a session object, under "ag-ui".
const agUiFields = (metadata) => (isRecord(metadata) && isRecord(metadata["ag-ui"]) ? metadata["ag-ui"] : {});

function withAgUiFields(metadata, fields) {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length === 0) return metadata;
  const base = isRecord(metadata) ? metadata : {};
  return { ...base, "ag-ui": { ...agUiFields(base), ...defined } };
}

function withMetadata(target, metadata) {
  if (metadata !== undefined) target.metadata = metadata;
  return target;
}

// The media part a file's media type makes: image, audio or video by its top-level type, else document.
function mediaKind(mediaType) {
  const kind = mediaType.split("/")[0].toLowerCase();
  return kind === "image" || kind === "audio" || kind === "video" ? kind : "document";
}

// A data part with an id keeps it (AG-UI's media parts carry one too).
const dataPart = (name, id, data) => (isString(id) ? { type: "data", name, id, data } : { type: "data", name, data });

const isFilePart = (part) =>
  part.type === "data" && part.name === "file" && isRecord(part.data) && isString(part.data.mediaType) &&
  isString(part.data.url) && (part.data.filename === undefined || isString(part.data.filename));

// A session file part as AG-UI content: the bytes of a base64 data: URL of its own media type
// inline, any other URL as it is; the filename, which AG-UI has no field for, in the metadata.
function fileContent(part) {
  const { mediaType, url, filename } = part.data;
  const inline = `data:${mediaType};base64,`;
  const source = url.startsWith(inline)
    ? { type: "data", value: url.slice(inline.length), mimeType: mediaType }
    : { type: "url", value: url, mimeType: mediaType };
  const content = { type: mediaKind(mediaType) };
  if (isString(part.id)) content.id = part.id;
  content.source = source;
  if (isString(filename)) content.metadata = { filename };
  return content;
}

const onlyKeys = (record, keys) => Object.keys(record).every((key) => keys.includes(key));

// A media content part as a session file part, only when fileContent writes it back as it came
// (so the server's stored copy gives the client's body again); undefined for any other.
function fileOf(item) {
  const { source, metadata } = item;
  if (!onlyKeys(item, ["type", "id", "source", "metadata"]) || (item.id !== undefined && !isString(item.id))) return undefined;
  if (!isRecord(source) || !onlyKeys(source, ["type", "value", "mimeType"]) || !isString(source.value) || !isString(source.mimeType)) return undefined;
  if (metadata !== undefined && !(isRecord(metadata) && onlyKeys(metadata, ["filename"]) && isString(metadata.filename))) return undefined;
  const inline = `data:${source.mimeType};base64,`;
  const url = source.type === "data" ? inline + source.value : source.value;
  if (mediaKind(source.mimeType) !== item.type || (source.type !== "data" && (source.type !== "url" || url.startsWith(inline)))) return undefined;
  return dataPart("file", item.id, isString(metadata?.filename) ? { mediaType: source.mimeType, url, filename: metadata.filename } : { mediaType: source.mimeType, url });
}

// Text content parts as text parts; media parts as file parts, or else as data parts named after their type.
function contentParts(content) {
  if (isString(content)) return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const parts = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (item.type === "text" && isString(item.text)) parts.push({ type: "text", text: item.text });
    else if (mediaTypes.has(item.type)) {
      const { type, id, ...data } = item;
      parts.push(fileOf(item) ?? dataPart(type, id, data));
    }
  }
  return parts;
}

// A call's arguments as the reducer's tool-input-end reads them.
function callFromArguments(call, id, name) {
  const text = isString(call.function?.arguments) ? call.function.arguments : "";
  const part = { type: "tool", id, name, input: null, inputText: text, state: "running" };
  try {
    part.input = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    part.state = "error";
    part.error = { message: INVALID_INPUT, code: INVALID_INPUT_CODE };
  }
  const metadata = withAgUiFields(isRecord(call.metadata) ? call.metadata : undefined, {
    encryptedValue: isString(call.encryptedValue) ? call.encryptedValue : undefined,
  });
  return withMetadata(part, metadata);
}

/** AG-UI messages as session messages (see index.d.ts). */
export function fromAgUiMessages(messages) {
  const result = [];
  const messageIds = new Set();
  const calls = new Map();
  const push = (message, metadata) => {
    messageIds.add(message.id);
    result.push(withMetadata(message, isRecord(metadata) ? metadata : undefined));
  };
  for (const message of Array.isArray(messages) ? messages : []) {
    if (!isRecord(message) || !isString(message.id) || messageIds.has(message.id)) continue;
    const { id } = message;
    switch (message.role) {
      case "user":
        push({ id, role: "user", parts: contentParts(message.content) }, message.metadata);
        break;
      case "assistant": {
        const parts = contentParts(isString(message.content) ? message.content : undefined);
        for (const call of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
          if (!isRecord(call) || !isString(call.id) || !isString(call.function?.name) || calls.has(call.id)) continue;
          const part = callFromArguments(call, call.id, call.function.name);
          calls.set(call.id, { parts, index: parts.length });
          parts.push(part);
        }
        push({ id, role: "assistant", parts }, message.metadata);
        break;
      }
      case "tool": {
        const held = isString(message.toolCallId) ? calls.get(message.toolCallId) : undefined;
        if (!held || held.parts[held.index].state !== "running") break;
        const call = { ...held.parts[held.index] };
        if (isString(message.error)) {
          call.state = "error";
          call.error = { message: message.error };
        } else {
          call.state = "done";
          call.output = message.content === undefined ? null : message.content;
        }
        call.metadata = withAgUiFields(call.metadata, { toolMessageId: id });
        held.parts[held.index] = call;
        break;
      }
      case "reasoning": {
        const text = isString(message.content) ? message.content : "";
        const metadata = withAgUiFields(undefined, { encryptedValue: isString(message.encryptedValue) ? message.encryptedValue : undefined });
        push({ id, role: "assistant", parts: [{ type: "reasoning", text }] }, metadata);
        break;
      }
      case "activity":
        if (isString(message.activityType) && message.content !== undefined) {
          push({ id, role: "assistant", parts: [{ type: "data", name: message.activityType, id, data: message.content }] });
        }
        break;
      default:
      // system and developer messages: the session holds users and assistants only.
    }
  }
  return result;
}

// Metadata to send back: the app's own keys; the "ag-ui" key is this adapter's.
function ownMetadata(metadata) {
  if (!isRecord(metadata)) return undefined;
  const { "ag-ui": _, ...rest } = metadata;
  return Object.keys(rest).length ? rest : undefined;
}

function toolContent(output) {
  if (isString(output)) return output;
  if (Array.isArray(output) && output.every((item) => isRecord(item) && isString(item.type))) return output;
  return JSON.stringify(output ?? null);
}

// The tool message answering a call, when it has an answer.
function toolMessage(part) {
  const id = agUiFields(part.metadata).toolMessageId ?? `${part.id}-result`;
  /** @type {{ id: string, role: "tool", toolCallId: string, content: string | unknown[], error?: string }} */
  const message = { id, role: "tool", toolCallId: part.id, content: "" };
  if (part.state === "done") message.content = toolContent(part.output);
  else if (part.state === "error" || part.state === "cancelled") message.error = part.error?.message ?? "The tool failed";
  else return undefined;
  return message;
}

function toolCall(part) {
  const text = part.input === null ? (part.inputText ?? "") : JSON.stringify(part.input);
  const call = { id: part.id, type: "function", function: { name: part.name, arguments: text } };
  const { encryptedValue } = agUiFields(part.metadata);
  if (isString(encryptedValue)) call.encryptedValue = encryptedValue;
  return withMetadata(call, ownMetadata(part.metadata));
}

// A user part as AG-UI content: text, a file as its media part, a data part named after a media
// type as that part; undefined for the others (app data AG-UI has no place for).
function userContent(part) {
  if (part.type === "text") return { type: "text", text: part.text };
  if (isFilePart(part)) return fileContent(part);
  if (part.type !== "data" || !mediaTypes.has(part.name) || !isRecord(part.data)) return undefined;
  return isString(part.id) ? { type: part.name, id: part.id, ...part.data } : { type: part.name, ...part.data };
}

// A user message's content: a plain string while it holds text alone (what agents expect).
function userMessage(message) {
  const content = message.parts.map(userContent).filter((item) => item !== undefined);
  const text = content.every((item) => item.type === "text") ? content.map((item) => item.text).join("") : content;
  return withMetadata({ id: message.id, role: "user", content: text }, ownMetadata(message.metadata));
}

// One session assistant message as AG-UI messages: its reasoning and activities as messages of
// their own, its text and calls as one assistant message, then a tool message per answer.
function assistantMessages(message) {
  const out = [];
  const alone = message.parts.length === 1;
  let text = "";
  const calls = [];
  const answers = [];
  message.parts.forEach((part, index) => {
    const ownId = alone ? message.id : `${message.id}-${index}`;
    if (part.type === "text") text += part.text;
    else if (part.type === "reasoning") {
      const reasoning = { id: ownId, role: "reasoning", content: part.text };
      const { encryptedValue } = agUiFields(alone ? message.metadata : part.metadata);
      if (isString(encryptedValue)) reasoning.encryptedValue = encryptedValue;
      out.push(reasoning);
    } else if (part.type === "data" && isRecord(part.data) && !mediaTypes.has(part.name)) {
      out.push({ id: part.id ?? ownId, role: "activity", activityType: part.name, content: part.data });
    } else if (part.type === "tool" && !isQuestionCall(part)) {
      calls.push(toolCall(part));
      const answer = toolMessage(part);
      if (answer) answers.push(answer);
    }
  });
  if (text !== "" || calls.length > 0) {
    const assistant = { id: message.id, role: "assistant" };
    if (text !== "") assistant.content = text;
    if (calls.length > 0) assistant.toolCalls = calls;
    out.push(withMetadata(assistant, ownMetadata(message.metadata)), ...answers);
  }
  return out;
}

/** `RunAgentInput.messages` for the session's messages. */
export function toAgUiMessages(messages) {
  return messages.flatMap((message) => (message.role === "user" ? [userMessage(message)] : assistantMessages(message)));
}

// The calls holding the last run's interrupts: those after the last text, reasoning or data
// part of the conversation (a run that resumed them has written since), user messages aside
// (`send` cancelled them, and the next run must still be told), leaving out calls the server
// has answered since (their result came with a tool message).
export function trailingInterruptCalls(messages) {
  const found = [];
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m];
    if (message.role === "user") continue;
    for (let p = message.parts.length - 1; p >= 0; p--) {
      const part = message.parts[p];
      if (part.type !== "tool") return found.reverse();
      if (interruptOf(part) !== undefined && agUiFields(part.metadata).toolMessageId === undefined) found.push(part);
    }
  }
  return found.reverse();
}

// Every call holding an interrupt, nested runs included, by interrupt id.
export function interruptCallsById(messages, byId = new Map()) {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== "tool") continue;
      const interrupt = interruptOf(part);
      if (interrupt) byId.set(interrupt.id, part);
      if (part.agent) interruptCallsById(part.agent.messages, byId);
    }
  }
  return byId;
}
