// The AI SDK 7 UI message stream (`UIMessageChunk`) as session actions. Stateless: every chunk
// maps on its own, because the reducer needs no text or reasoning ids (a delta never throws)
// and finds calls by id. Fields the AI SDK keeps for the next request go into the part's
// metadata under "ai-sdk", where toAiSdkMessages finds them.
import { DENIED, DENIED_CODE, INVALID_INPUT_CODE } from "../../wasm/protocol.js";
import { copyField, isJson, isRecord, isString, namespaced, partAction, restOf } from "../shared/fields.js";

const isBoolean = (value) => typeof value === "boolean";
const finishReasons = new Set(["stop", "length", "content-filter", "tool-calls", "other"]);
// AI SDK chunk types that become data parts named after the chunk type.
export const contentChunkTypes = new Set(["source-url", "source-document", "file", "reasoning-file", "custom"]);

const part = (fields) => [partAction(fields)];

function withMetadata(fields, metadata) {
  if (metadata !== undefined) fields.metadata = metadata;
  return fields;
}

// What a text or reasoning chunk carries for the next request.
function textMetadata(chunk) {
  if (chunk.providerMetadata === undefined && chunk.citations === undefined) return undefined;
  const fields = {};
  copyField(fields, "providerMetadata", chunk, "providerMetadata", isRecord);
  copyField(fields, "citations", chunk, "citations", Array.isArray);
  return namespaced("ai-sdk", Object.keys(fields).length ? fields : undefined);
}

// What a tool chunk carries; its providerMetadata is the call's or the result's.
function toolMetadata(chunk, providerMetadataKey) {
  const fields = {};
  copyField(fields, "providerExecuted", chunk, "providerExecuted", isBoolean);
  copyField(fields, "dynamic", chunk, "dynamic", isBoolean);
  copyField(fields, "title", chunk, "title", isString);
  copyField(fields, "toolMetadata", chunk, "toolMetadata", isRecord);
  copyField(fields, "inputEncoding", chunk, "inputEncoding", isString);
  copyField(fields, providerMetadataKey, chunk, "providerMetadata", isRecord);
  return namespaced("ai-sdk", Object.keys(fields).length ? fields : undefined);
}

const errorText = (chunk, fallback) => (isString(chunk.errorText) ? chunk.errorText : fallback);

function toolCall(chunk) {
  if (!isString(chunk.toolCallId) || !isString(chunk.toolName)) return undefined;
  return withMetadata(
    { type: "tool-call", id: chunk.toolCallId, name: chunk.toolName, input: chunk.input === undefined ? null : chunk.input },
    toolMetadata(chunk, "callProviderMetadata"),
  );
}

// Why a replay whose `start` names no message fails: it cannot be told from a new reply, so it would be doubled.
const UNKEYED_REPLAY = "The reply cannot be resumed: the agent's stream starts without a messageId, so its replay would double what is shown (give the start chunk a messageId, e.g. generateMessageId)";

function fromStart(chunk, replay) {
  const metadata = chunk.messageMetadata;
  if (!isString(chunk.messageId)) {
    if (replay) return part({ type: "error", error: UNKEYED_REPLAY });
    return metadata === undefined ? [] : part({ type: "message-metadata", metadata });
  }
  const start = withMetadata({ type: "message-start", messageId: chunk.messageId }, metadata);
  // A replayed stream carries the whole message again: start it over, so nothing doubles.
  if (!replay) return part(start);
  const empty = { id: chunk.messageId, role: "assistant", parts: [] };
  return [partAction({ type: "snapshot", messages: [empty] }), partAction(start)];
}

const translators = {
  start: fromStart,
  "message-metadata": (chunk) =>
    chunk.messageMetadata === undefined ? [] : part({ type: "message-metadata", metadata: chunk.messageMetadata }),
  // Text ids are not needed: a delta appends to the text being written, or starts a part.
  "text-start": (chunk) => {
    const metadata = textMetadata(chunk);
    return metadata === undefined ? [] : part({ type: "text-delta", text: "", metadata });
  },
  "text-delta": (chunk) =>
    isString(chunk.delta) ? part(withMetadata({ type: "text-delta", text: chunk.delta }, textMetadata(chunk))) : [],
  "text-end": (chunk) => {
    const metadata = textMetadata(chunk);
    return metadata === undefined ? [] : part({ type: "text-delta", text: "", metadata });
  },
  // A reasoning block is its own part (two signed blocks stay two), opened by its start.
  "reasoning-start": (chunk) => part(withMetadata({ type: "reasoning", text: "" }, textMetadata(chunk))),
  "reasoning-delta": (chunk) =>
    isString(chunk.delta) ? part(withMetadata({ type: "reasoning-delta", text: chunk.delta }, textMetadata(chunk))) : [],
  "reasoning-end": (chunk) => {
    const metadata = textMetadata(chunk);
    return metadata === undefined ? [] : part({ type: "reasoning-delta", text: "", metadata });
  },
  "tool-input-start": (chunk) => {
    if (!isString(chunk.toolCallId) || !isString(chunk.toolName)) return [];
    const start = { type: "tool-input-delta", id: chunk.toolCallId, name: chunk.toolName, text: "" };
    return part(withMetadata(start, toolMetadata(chunk, "callProviderMetadata")));
  },
  "tool-input-delta": (chunk) =>
    isString(chunk.toolCallId) && isString(chunk.inputTextDelta)
      ? part({ type: "tool-input-delta", id: chunk.toolCallId, text: chunk.inputTextDelta })
      : [],
  // The input as the server parsed it; it completes a call whose input was streaming.
  "tool-input-available": (chunk) => {
    const call = toolCall(chunk);
    return call ? part(call) : [];
  },
  "tool-input-error": (chunk) => {
    const call = toolCall(chunk);
    if (!call) return [];
    const error = { message: errorText(chunk, "The tool input is not valid"), code: INVALID_INPUT_CODE };
    return [partAction(call), partAction({ type: "tool-error", id: call.id, error })];
  },
  "tool-approval-request": (chunk) => {
    if (!isString(chunk.toolCallId)) return [];
    const request = { type: "tool-approval-request", id: chunk.toolCallId };
    copyField(request, "approvalId", chunk, "approvalId", isString);
    copyField(request, "prompt", chunk, "reason", isString);
    copyField(request, "automatic", chunk, "isAutomatic", isBoolean);
    // The rest (descriptor, signature, reason, inputSchemaInput) goes back with the answer.
    const details = restOf(chunk, ["type", "approvalId", "toolCallId", "isAutomatic"]);
    if (details !== undefined) request.details = details;
    return part(request);
  },
  "tool-approval-response": (chunk) => {
    if (!isString(chunk.approvalId) || !isBoolean(chunk.approved)) return [];
    const response = { type: "tool-approval-response", approvalId: chunk.approvalId, approved: chunk.approved };
    copyField(response, "reason", chunk, "reason", isString);
    return part(response);
  },
  "tool-output-available": (chunk) => {
    if (!isString(chunk.toolCallId)) return [];
    const result = { type: "tool-result", id: chunk.toolCallId, output: chunk.output === undefined ? null : chunk.output };
    if (chunk.preliminary === true) result.preliminary = true;
    return part(withMetadata(result, toolMetadata(chunk, "resultProviderMetadata")));
  },
  "tool-output-error": (chunk) => {
    if (!isString(chunk.toolCallId)) return [];
    const error = { type: "tool-error", id: chunk.toolCallId, error: { message: errorText(chunk, "The tool failed") } };
    return part(withMetadata(error, toolMetadata(chunk, "resultProviderMetadata")));
  },
  "tool-output-denied": (chunk) =>
    isString(chunk.toolCallId)
      ? part({ type: "tool-error", id: chunk.toolCallId, error: { message: DENIED, code: DENIED_CODE } })
      : [],
  "start-step": () => part({ type: "step-start" }),
  "finish-step": () => part({ type: "step-finish" }),
  // The provider restarted the step: what it gave since the step began goes.
  "reset-step": () => part({ type: "step-reset" }),
  finish: (chunk) => {
    const finish = { type: "finish" };
    if (finishReasons.has(chunk.finishReason)) finish.reason = chunk.finishReason;
    else if (isString(chunk.finishReason)) finish.reason = "other";
    if (chunk.messageMetadata === undefined) return part(finish);
    return [partAction({ type: "message-metadata", metadata: chunk.messageMetadata }), partAction(finish)];
  },
  abort: () => part({ type: "finish", reason: "aborted" }),
  error: (chunk) => part({ type: "error", error: errorText(chunk, "The stream failed") }),
};

// Sources, files and custom parts: data parts named after the chunk type (a source's id is
// the part's id, so a replayed source replaces itself).
function fromContent(chunk) {
  const data = { type: "data", name: chunk.type, data: restOf(chunk, ["type", "providerMetadata", "sourceId"]) ?? {} };
  copyField(data, "id", chunk, "sourceId", isString);
  return part(withMetadata(data, textMetadata({ providerMetadata: chunk.providerMetadata })));
}

// `data-NAME` parts; transient ones are not conversation state: no action, and the data part
// goes to `onTransientData` when it is given (the app reads it itself).
function fromData(chunk, onTransientData) {
  if (!isJson(chunk.data)) return [];
  const data = { type: "data", name: chunk.type.slice(5), data: chunk.data };
  copyField(data, "id", chunk, "id", isString);
  if (chunk.transient !== true) return part(data);
  onTransientData?.({ ...data, transient: true });
  return [];
}

/**
 * The actions for one UIMessageChunk of `ai` 7. A chunk that is not an object, of an unknown
 * type, or missing a field its action needs gives []: this never throws.
 */
export function fromAiSdkChunk(chunk, options) {
  if (!isRecord(chunk) || !isString(chunk.type)) return [];
  const translate = Object.prototype.hasOwnProperty.call(translators, chunk.type) ? translators[chunk.type] : undefined;
  if (translate) return translate(chunk, options?.replay === true);
  if (contentChunkTypes.has(chunk.type)) return fromContent(chunk);
  if (chunk.type.startsWith("data-")) return fromData(chunk, options?.onTransientData);
  return [];
}
