// The agent: NDJSON actions. "Look it up" starts a search call that never finishes (the test
// reloads the page meanwhile); anything else gets a short reply, streamed word by word.
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function POST(request) {
  const { messages } = await request.json();
  const text = messages.at(-1).parts[0].text;
  const messageId = `reply-${messages.length}`;
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    async start(controller) {
      const part = (part) => controller.enqueue(encoder.encode(JSON.stringify({ type: "part", part }) + "\n"));
      part({ type: "message-start", messageId });
      if (text === "Look it up") {
        part({ type: "tool-call", messageId, id: `call-${messages.length}`, name: "search", input: { query: text } });
        return; // left open: the page reloads mid-run
      }
      for (const word of ["Hello ", "from ", "Next.js."]) {
        part({ type: "text-delta", messageId, text: word });
        await pause(20);
      }
      part({ type: "finish", reason: "stop" });
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" } });
}
