// An AI SDK turn that asks for an approval, and the reply after it, which goes on in the same
// message (`start` names it again): what the resume and tabs tests cut and reload.

/** The first run: text, a call, its approval request. */
export const ASKED = [
  { type: "start", messageId: "a1" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Delete 3 drafts?" },
  { type: "text-end", id: "t1" },
  { type: "tool-input-available", toolCallId: "c1", toolName: "delete_drafts", input: {} },
  { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" },
  { type: "finish", finishReason: "tool-calls" },
];

/** The run after the approval: the call's output, then more text in the same message. */
export const CONTINUED = [
  { type: "start", messageId: "a1" },
  { type: "tool-output-available", toolCallId: "c1", output: { deleted: 3 } },
  { type: "text-start", id: "t2" },
  ...[" Done:", " 3 drafts", " deleted."].map((delta) => ({ type: "text-delta", id: "t2", delta })),
  { type: "text-end", id: "t2" },
  { type: "finish", finishReason: "stop" },
];
