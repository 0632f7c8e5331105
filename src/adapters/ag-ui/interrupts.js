// AG-UI interrupts as calls to the human. An interrupt with a `toolCallId` asks to approve
// that call; one without is a question of the agent, held as a call named after its `reason`
// (so the app's tool renderers pick its UI). Either way the call's approval carries the
// Interrupt itself as `details`, which is how the request builder recognises it.
import { isRecord, isString } from "../shared/fields.js";

export function isInterrupt(value) {
  return isRecord(value) && isString(value.id) && isString(value.reason);
}

// The interrupt behind a call, when its approval came from one.
export function interruptOf(part) {
  const details = part.approval?.details;
  return isInterrupt(details) && details.id === part.approval.id ? details : undefined;
}

// A call that exists only to hold a run-level interrupt (the server knows no such call).
export const isQuestionCall = (part) => {
  const interrupt = interruptOf(part);
  return interrupt !== undefined && interrupt.toolCallId === undefined && part.id === interrupt.id;
};

// The parts that put an interrupt to the user.
export function interruptParts(interrupt) {
  const request = { type: "tool-approval-request", approvalId: interrupt.id, details: interrupt };
  if (isString(interrupt.message)) request.prompt = interrupt.message;
  if (isString(interrupt.toolCallId)) return [{ ...request, id: interrupt.toolCallId }];
  return [
    { type: "tool-call", id: interrupt.id, name: interrupt.reason, input: {} },
    { ...request, id: interrupt.id },
  ];
}

// The resume entry answering the interrupt behind a call, from the call's state.
export function resumeEntry(part, interruptId) {
  const approval = part.approval ?? {};
  const answer = (payload) => ({ interruptId, status: "resolved", payload });
  const withReason = (fields) => (isString(approval.reason) ? { ...fields, reason: approval.reason } : fields);
  if (approval.approved === true && part.state === "done") return answer(part.output);
  if (approval.approved === true && part.state === "running") return answer(withReason({ approved: true }));
  if (approval.approved === false) return answer(withReason({ approved: false }));
  return { interruptId, status: "cancelled" };
}
