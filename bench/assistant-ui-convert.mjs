// What chat-session-reducer/assistant-ui's conversion costs per streamed delta: toRepository
// (src/assistant-ui/convert.js) on a thread of N messages whose last one grows by a character,
// with its fast path (only the last message converted again) and with the whole walk (the
// converter's last result dropped before each call). The median of 300 deltas after 100 of warm-up.
// assistant-ui's own cost and React's are not in it (bench:ui measures the page in Chromium).
//
//   node bench/assistant-ui-convert.mjs
import { createConverter, toRepository } from "../src/assistant-ui/convert.js";

for (const whole of [false, true]) {
  for (const n of [10, 100, 1000, 10000]) {
    const earlier = Array.from({ length: n }, (_, i) => ({ id: `m${i}`, role: i % 2 ? "assistant" : "user", parts: [{ type: "text", text: `message ${i} `.repeat(5) }] }));
    let state = { messages: [...earlier, { id: "live", role: "assistant", parts: [{ type: "text", text: "" }] }], status: "streaming" };
    const convert = createConverter();
    toRepository(state, convert);
    const times = [];
    for (let i = 0; i < 400; i += 1) {
      const last = state.messages.at(-1);
      state = { ...state, messages: [...state.messages.slice(0, -1), { ...last, parts: [{ type: "text", text: last.parts[0].text + "x" }] }] };
      if (whole) convert.previous = undefined;
      const started = performance.now();
      toRepository(state, convert);
      times.push(performance.now() - started);
    }
    times.splice(0, 100);
    times.sort((a, b) => a - b);
    console.log(`${whole ? "whole walk" : "fast path "}  ${String(n).padStart(5)} messages: ${times[times.length >> 1].toFixed(3)} ms per delta (median)`);
  }
}
