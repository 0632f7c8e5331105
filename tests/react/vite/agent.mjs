// The chat endpoint of the Vite app, as dev-server middleware: POST /api/chat answers in the
// package's NDJSON actions. "long" asks for a 2,000-delta reply, written in bursts of 50 every
// 5 ms (faster than frames, as a model streaming over a fast network); anything else, a greeting.
import { setTimeout as sleep } from "node:timers/promises";

export const LONG_REPLY_DELTAS = 2000;

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export function agentPlugin() {
  return {
    name: "scripted-agent",
    configureServer(server) {
      server.middlewares.use("/api/chat", async (request, response) => {
        const { messages } = await readJson(request);
        const last = messages.at(-1).parts[0].text;
        const messageId = `reply-${messages.length}`;
        const part = (part) => response.write(JSON.stringify({ type: "part", part }) + "\n");
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        part({ type: "message-start", messageId });
        if (last === "long") {
          for (let delta = 0; delta < LONG_REPLY_DELTAS; delta += 1) {
            part({ type: "text-delta", messageId, text: `w${delta} ` });
            if (delta % 50 === 49) await sleep(5);
          }
        } else {
          part({ type: "text-delta", messageId, text: "Hello from the agent." });
        }
        part({ type: "finish", reason: "stop" });
        response.end();
      });
    },
  };
}
