// A `.js` test file: in this "type": "module" package it is an ES module, and the packed README's
// "Testing with Jest" says Jest finds it (run.mjs checks that Jest lists every test file here).
import { expect, test } from "@jest/globals";
import { sessionReducer } from "chat-session-reducer";

test("chat-session-reducer/jest-environment gives a streamed Response its globals, and the package imports by name", async () => {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("Hello"));
      controller.close();
    },
  });
  const response = new Response(body, { headers: new Headers({ "content-type": "text/plain" }) });
  expect(await response.text()).toBe("Hello");
  expect(new TextDecoder().decode(new TextEncoder().encode("ü"))).toBe("ü");
  expect(typeof fetch).toBe("function");
  const state = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Hi" });
  expect(state.messages.map((message) => message.role)).toEqual(["user"]);
});
