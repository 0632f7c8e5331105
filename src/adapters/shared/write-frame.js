// How a server writes one frame of the two framings the adapters read (read-stream.js): what a
// protocol's descriptor gives a test's scripted endpoint (chat-session-reducer/testing).

/** A frame as one NDJSON line. */
export const jsonLine = (frame) => `${JSON.stringify(frame)}\n`;

/** A frame as one server-sent event, `data: <json>`. */
export const jsonEvent = (frame) => `data: ${JSON.stringify(frame)}\n\n`;
