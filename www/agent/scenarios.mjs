// The scripted agent: what the user types picks one of these runs. Each run plays stream parts
// through an agent stream (./stream.mjs), which the endpoint's wire encodes in its protocol.
// A run that leaves a call for the user (an approval, a client-side tool) finishes; the page
// answers it and sends the conversation again, and the scenario's `resume` goes on from there.
// Ids are random so that call ids stay unique across the whole conversation, as the reducer
// requires, even after a server restart.

import { randomUUID } from "node:crypto";

const newId = (prefix) => `${prefix}_${randomUUID().slice(0, 8)}`;
const textOutput = (text) => ({ content: [{ type: "text", text }] });

// In two halves: the end-to-end tests hold the reply between them ("plain: midway").
const HELP_START =
  "Hello! I'm a scripted agent served by this demo. Ask me to delete the old drafts and I'll ask " +
  "for your approval first. Ask me to research something and I'll delegate it to a sub-agent. ";
const HELP_END =
  "Ask me to write a haiku and you'll see the file's content stream in. Ask me to book a table " +
  "and I'll ask you for a time. Ask me about the weather and the connection will drop after my " +
  "tool call, so you can Retry. Ask me for a long story and you can Stop me halfway.";

const plain = {
  name: "plain",
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    agent.part({
      type: "reasoning",
      messageId,
      text: "A greeting: answer briefly and list what this demo can show.",
    });
    await agent.say(messageId, HELP_START);
    await agent.hold("plain: midway");
    await agent.say(messageId, HELP_END);
    await agent.hold("plain: before the end");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const approval = {
  name: "approval",
  matches: /\b(delete|drafts?|approve|confirm)/i,
  async play(agent) {
    const messageId = newId("msg");
    const callId = newId("call");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "I found 3 drafts older than 30 days.");
    agent.part({ type: "tool-call", messageId, id: callId, name: "delete_drafts", input: { folder: "drafts", olderThanDays: 30 } });
    await agent.pause(300);
    agent.part({ type: "tool-approval-request", id: callId, approvalId: callId, prompt: "Delete 3 drafts older than 30 days? This cannot be undone." });
    agent.part({ type: "finish", reason: "tool-calls" });
  },
  // The page sends the conversation again once the user answered: approved, the call waits to run.
  async resume(agent, { assistantMessage, call }) {
    agent.part({ type: "message-start", messageId: assistantMessage.id });
    if (call.state === "running" && call.approval?.approved === true) {
      await agent.pause(600);
      agent.part({ type: "tool-result", id: call.id, output: textOutput("Deleted 3 drafts: q1-plan.md, notes-old.md, untitled-7.md") });
      await agent.say(assistantMessage.id, " Done: the 3 old drafts are deleted.");
    } else {
      await agent.say(assistantMessage.id, " Okay, I left the drafts alone.");
    }
    agent.part({ type: "finish", reason: "stop" });
  },
};

const clientTool = {
  name: "client tool",
  matches: /\b(book|table|reserve)/i,
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "Which time suits you?");
    // pick_time runs in the page: the user's choice is its result.
    agent.part({ type: "tool-call", messageId, id: newId("call"), name: "pick_time", input: { options: ["7 pm", "8 pm"] } });
    agent.part({ type: "finish", reason: "tool-calls" });
  },
  async resume(agent, { assistantMessage, call }) {
    agent.part({ type: "message-start", messageId: assistantMessage.id });
    const time = answerOf(call)?.time;
    await agent.say(assistantMessage.id, time === undefined ? " No time picked, so I booked nothing." : ` Booked a table for ${time}.`);
    agent.part({ type: "finish", reason: "stop" });
  },
};

const streamedInput = {
  name: "streamed input",
  matches: /\b(write|haiku|file)/i,
  async play(agent) {
    const messageId = newId("msg");
    const callId = newId("call");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "I'll write it to a file.");
    const input = JSON.stringify({ path: "notes/haiku.txt", content: "Bytes cross the boundary / a reducer keeps its shape / the page never blinks" });
    for (let start = 0; start < input.length; start += 6) {
      const text = input.slice(start, start + 6);
      agent.part(start === 0 ? { type: "tool-input-delta", messageId, id: callId, name: "write_file", text } : { type: "tool-input-delta", id: callId, text });
      await agent.pause(40);
      if (start === 24) await agent.hold("streamed input: input streaming");
    }
    agent.part({ type: "tool-input-end", id: callId });
    await agent.pause(300);
    agent.part({ type: "tool-result", id: callId, output: textOutput("Wrote 3 lines to notes/haiku.txt") });
    await agent.say(messageId, " Saved.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const delegation = {
  name: "delegation",
  matches: /\b(research|delegate|investigate)/i,
  async play(agent, { userText }) {
    const messageId = newId("msg");
    const delegateId = newId("call");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "I'll hand this to the research agent.");
    agent.part({ type: "tool-call", messageId, id: delegateId, name: "delegate_to_researcher", input: { task: userText } });

    // The sub-agent's own run, nested behind the delegate call.
    const subMessageId = newId("msg");
    const searchId = newId("call");
    agent.part({ type: "message-start", messageId: subMessageId }, delegateId);
    await agent.say(subMessageId, "Searching for sources.", delegateId);
    agent.part({ type: "tool-call", messageId: subMessageId, id: searchId, name: "web_search", input: { query: userText, limit: 3 } }, delegateId);
    await agent.hold("delegation: searching");
    await agent.pause(3000);
    agent.part({ type: "tool-result", id: searchId, output: textOutput("3 results: an overview, a tutorial, a benchmark report.") }, delegateId);
    const summary = "Three sources agree: it is fast, portable and sandboxed, and it runs beside JavaScript.";
    await agent.say(subMessageId, " " + summary, delegateId);
    agent.part({ type: "finish", reason: "stop" }, delegateId);

    agent.part({ type: "tool-result", id: delegateId, output: textOutput(summary) });
    await agent.say(messageId, " The researcher reports: " + summary);
    agent.part({ type: "finish", reason: "stop" });
  },
};

const failure = {
  name: "failure",
  matches: /\b(weather|fail|network)/i,
  async play(agent) {
    const messageId = newId("msg");
    const callId = newId("call");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "Let me look that up.");
    agent.part({ type: "tool-call", messageId, id: callId, name: "get_weather", input: { city: "Lisbon" } });
    await agent.pause(500);
    agent.part({ type: "tool-result", id: callId, output: textOutput("Lisbon: 21 °C, sunny, light wind.") });
    await agent.say(messageId, " In Lisbon it is");
    // The end-to-end tests hold the drop until the page shows that text: a drop loses what is on its way.
    await agent.hold("failure: before the drop");
    await agent.pause(200);
    agent.drop();
  },
  // Retry sends resumable(messages): the conversation through the finished get_weather call.
  async resume(agent, { assistantMessage }) {
    agent.part({ type: "message-start", messageId: assistantMessage.id });
    await agent.say(assistantMessage.id, " In Lisbon it is 21 °C and sunny, with a light wind.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const longAnswer = {
  name: "long",
  matches: /\b(long|story|essay)/i,
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    const paragraph =
      "The lighthouse keeper counted the ships every night, writing each name in a ledger that " +
      "nobody had asked for and nobody would read. ";
    for (let i = 0; i < 12; i += 1) {
      await agent.say(messageId, paragraph);
      if (i === 0) await agent.hold("long: after the first paragraph");
    }
    await agent.hold("long: before the end");
    await agent.say(messageId, "The end.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const malformedFrame = {
  name: "malformed",
  matches: /\bmalformed/i,
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "This reply carries a frame that does not match the types:");
    // A tool-call whose id is a number: valid JSON, not a valid action.
    agent.invalid({ type: "part", part: { type: "tool-call", messageId, id: 42, name: "broken", input: {} } });
    await agent.say(messageId, " this text must never show.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const garbledFrame = {
  name: "garbled",
  matches: /\bgarbled/i,
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    await agent.say(messageId, "This reply carries a frame that is not JSON:");
    await agent.pause(100);
    agent.garbled();
    await agent.say(messageId, " this text must never show.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const SCENARIOS = [approval, clientTool, streamedInput, delegation, failure, longAnswer, malformedFrame, garbledFrame];

const textOf = (message) =>
  message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");

/** The user's answer to a client-side call: its output, parsed when a protocol sent it as JSON text. */
function answerOf(call) {
  if (typeof call?.output !== "string") return call?.output;
  try {
    return JSON.parse(call.output);
  } catch {
    return undefined;
  }
}

/**
 * Picks the run for a request's messages (the session's messages, whatever the protocol): by
 * the last user message's text, and when the conversation ends with an assistant message (an
 * answered call, a Retry after a finished call), the scenario's continuation of it, given that
 * message and its last call.
 * Returns { name, play(agent) } or null when there is no user message to answer.
 */
export function pickRun(messages) {
  const userIndex = messages.findLastIndex((message) => message.role === "user");
  if (userIndex === -1) return null;
  const userText = textOf(messages[userIndex]);
  const scenario = SCENARIOS.find((candidate) => candidate.matches.test(userText)) ?? plain;
  const last = messages[messages.length - 1];
  if (last.role === "assistant" && scenario.resume) {
    const call = last.parts.findLast((part) => part.type === "tool");
    return { name: `${scenario.name} (resumed)`, play: (agent) => scenario.resume(agent, { userText, assistantMessage: last, call }) };
  }
  return { name: scenario.name, play: (agent) => scenario.play(agent, { userText }) };
}
