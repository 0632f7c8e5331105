// This package's own protocol: the request carries the session's messages as they are, the
// answer is NDJSON, one action a line: { type: "part", part, within? }.

export const contentType = "application/x-ndjson; charset=utf-8";

export function messagesOf(body) {
  const isMessage = (message) => typeof message?.role === "string" && Array.isArray(message.parts);
  return Array.isArray(body?.messages) && body.messages.every(isMessage) ? body.messages : null;
}

export function createWire(res) {
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-store", "x-content-type-options": "nosniff" });
  const line = (value) => res.write(value + "\n");
  return {
    part: (part, within) => line(JSON.stringify(within === undefined ? { type: "part", part } : { type: "part", part, within })),
    garbled: () => line('{"type": "part", "part": {"type": "text-delta", "text": '),
    invalid: (frame) => line(JSON.stringify(frame)),
    drop: () => res.destroy(),
    end: () => res.end(),
    abort() {},
  };
}
