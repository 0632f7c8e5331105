// The pieces the server benches share: the model's stream as streamText(...).toUIMessageStream()
// hands it over, and the plain pass-through that writes it to a Response body without the server.

/** A ReadableStream of `chunks` (chunk objects), one per pull. */
export const modelStream = (chunks) => {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
};

/** The plain pass-through: each chunk of `stream` written to a Response body as the AI SDK's SSE bytes, one read per write. */
export function passThrough(stream) {
  const encoder = new TextEncoder();
  const reader = stream.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
    },
    cancel: () => reader.cancel(),
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}
