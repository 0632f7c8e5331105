// Session messages as AI SDK 7 UIMessages: the body of the next request to a server that calls
// `convertToModelMessages`, with what the stream gave back in place (provider metadata such
// as reasoning signatures, approvals and their answers, denials as ai 7 holds them).
import { DENIED_CODE } from "../../wasm/protocol.js";
import { isRecord } from "../shared/fields.js";
import { contentChunkTypes } from "./from-chunk.js";

const sdkFields = (part) => (isRecord(part.metadata) && isRecord(part.metadata["ai-sdk"]) ? part.metadata["ai-sdk"] : {});

function assign(target, key, value) {
  if (value !== undefined) target[key] = value;
  return target;
}

function textLike(part) {
  const fields = sdkFields(part);
  const uiPart = { type: part.type, text: part.text };
  assign(uiPart, "providerMetadata", fields.providerMetadata);
  return part.type === "text" ? assign(uiPart, "citations", fields.citations) : uiPart;
}

function dataPart(part) {
  if (contentChunkTypes.has(part.name)) {
    const uiPart = { type: part.name, ...(isRecord(part.data) ? part.data : {}) };
    if (part.id !== undefined) uiPart.sourceId = part.id;
    return assign(uiPart, "providerMetadata", sdkFields(part).providerMetadata);
  }
  return assign({ type: `data-${part.name}`, data: part.data }, "id", part.id);
}

// The approval as the AI SDK holds it: the request's fields (kept in `details`) and the answer.
function approvalOf(part, approved) {
  const approval = { id: part.approval?.id ?? part.id };
  const details = isRecord(part.approval?.details) ? part.approval.details : {};
  assign(approval, "descriptor", details.approvalDescriptor);
  assign(approval, "requestReason", details.reason);
  assign(approval, "signature", details.signature);
  assign(approval, "inputSchemaInput", details.inputSchemaInput);
  if (part.approval?.automatic === true) approval.isAutomatic = true;
  if (approved !== undefined) {
    approval.approved = approved;
    assign(approval, "reason", part.approval?.reason);
  }
  return approval;
}

// A call's state and its fields in the AI SDK's terms. A call without a result (cancelled,
// or cut short while its input streamed) is sent as an error the model can read, so
// `convertToModelMessages` never meets a call without an answer (MissingToolResultsError).
function toolState(part) {
  const input = part.input;
  switch (part.state) {
    case "done":
      return assign({ state: "output-available", input, output: part.output }, "approval", part.approval?.approved ? approvalOf(part, true) : undefined);
    case "error":
      if (part.error?.code === DENIED_CODE) return { state: "output-denied", input, approval: approvalOf(part, false) };
      return assign({ state: "output-error", input, errorText: part.error?.message ?? "The tool failed" }, "rawInput", part.inputText);
    case "cancelled":
      return { state: "output-error", input, errorText: part.error?.message ?? "Cancelled by the user" };
    case "input-streaming":
      return { state: "output-error", input, rawInput: part.inputText ?? "", errorText: "The tool input was not complete" };
    case "awaiting-confirmation":
      return part.approval ? { state: "approval-requested", input, approval: approvalOf(part) } : { state: "input-available", input };
    default:
      // running: approved and waiting to run on the server, or waiting for its result.
      return part.approval?.approved === true
        ? { state: "approval-responded", input, approval: approvalOf(part, true) }
        : { state: "input-available", input };
  }
}

function toolPart(part) {
  const fields = sdkFields(part);
  const uiPart = fields.dynamic === true ? { type: "dynamic-tool", toolName: part.name } : { type: `tool-${part.name}` };
  uiPart.toolCallId = part.id;
  assign(uiPart, "title", fields.title);
  assign(uiPart, "toolMetadata", fields.toolMetadata);
  assign(uiPart, "providerExecuted", fields.providerExecuted);
  Object.assign(uiPart, toolState(part));
  assign(uiPart, "callProviderMetadata", fields.callProviderMetadata);
  if (uiPart.state === "output-available" || uiPart.state === "output-error") {
    assign(uiPart, "resultProviderMetadata", fields.resultProviderMetadata);
  }
  return uiPart;
}

function uiPartOf(part) {
  switch (part.type) {
    case "text":
    case "reasoning":
      return textLike(part);
    case "data":
      return dataPart(part);
    case "tool":
      return toolPart(part);
    default:
      return undefined;
  }
}

// A denial the server has not answered yet: the user's, in the last step of the last message.
// ai 7 holds it as `approval-responded` (approved: false) until the server answers it with
// `tool-output-denied`, and only that state gives the model an `execution-denied` result.
function asUnansweredDenials(parts) {
  for (let index = parts.length - 1; index >= 0 && parts[index].type !== "step-start"; index--) {
    const part = parts[index];
    if ((part.type === "dynamic-tool" || part.type.startsWith("tool-")) && part.state === "output-denied") part.state = "approval-responded";
  }
  return parts;
}

function uiPartsOf(message) {
  const parts = [];
  // A message with step parts (the AI SDK's start-step) says where its steps began.
  const stepped = message.parts.some((part) => part.type === "step");
  let afterTool = false;
  for (const part of message.parts) {
    if (part.type === "step") {
      parts.push({ type: "step-start" });
      continue;
    }
    const uiPart = uiPartOf(part);
    if (uiPart === undefined) continue;
    // Without them, a step ends where something other than a call follows a call: the model
    // saw the results before it wrote on (convertToModelMessages splits the turn at step-start).
    if (!stepped && afterTool && part.type !== "tool") parts.push({ type: "step-start" });
    afterTool = part.type === "tool";
    parts.push(uiPart);
  }
  return parts;
}

/**
 * The session's messages as AI SDK UIMessages (`{ id, role, metadata?, parts }`). A denial is
 * `output-denied` once the conversation went on after it (a later step or message: the server
 * answered it), else `approval-responded` with `approved: false`.
 */
export function toAiSdkMessages(messages) {
  return messages.map((message, index) => {
    const parts = uiPartsOf(message);
    return assign({ id: message.id, role: message.role, parts: index === messages.length - 1 ? asUnansweredDenials(parts) : parts }, "metadata", message.metadata);
  });
}
