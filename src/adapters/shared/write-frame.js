// How a server writes one frame of the two framings the adapters read (read-stream.js): what a
// protocol's descriptor gives a test's scripted endpoint (chat-session-reducer/testing) and the
// server (chat-session-reducer/server, which keeps each frame's JSON text in its run log).

/** A frame's JSON text as one NDJSON line. */
export const jsonTextLine = (json) => `${json}\n`;

/** A frame's JSON text as one server-sent event, `data: <json>`. */
export const jsonTextEvent = (json) => `data: ${json}\n\n`;

/** A frame as one NDJSON line. */
export const jsonLine = (frame) => jsonTextLine(JSON.stringify(frame));

/** A frame as one server-sent event, `data: <json>`. */
export const jsonEvent = (frame) => jsonTextEvent(JSON.stringify(frame));
