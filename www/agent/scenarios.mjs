// The scripted agent: what the user types picks one of these runs. Each run plays frames
// through an agent stream (./stream.mjs). Ids are random so that call ids stay unique across the
// whole conversation, as the reducer requires, even after a server restart.

import { randomUUID } from "node:crypto";

const newId = (prefix) => `${prefix}_${randomUUID().slice(0, 8)}`;
const textOutput = (text) => ({ content: [{ type: "text", text }] });

const HELP =
  "Hello! I'm a scripted agent served by this demo. Ask me to delete the old drafts and I'll ask " +
  "for your approval first. Ask me to research something and I'll delegate it to a sub-agent. " +
  "Ask me about the weather and the connection will fail after my tool call, so you can Retry. " +
  "Ask me for a long story and you can Stop me halfway.";

const plain = {
  name: "plain",
  async play(agent) {
    const messageId = newId("msg");
    agent.part({ type: "message-start", messageId });
    agent.part({
      type: "reasoning",
      messageId,
      text: "A greeting: answer briefly and list what this demo can show.",
      metadata: { model: "scripted" },
    });
    await agent.say(messageId, HELP);
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
    agent.phase("delete_drafts", "awaiting-confirmation", "Delete 3 drafts older than 30 days? This cannot be undone.");
    // The page has already shown the user's decision (see www/README.md); the agent only acts on it.
    const approved = await agent.decision(callId);
    if (approved) {
      await agent.pause(600);
      agent.part({ type: "tool-result", id: callId, output: textOutput("Deleted 3 drafts: q1-plan.md, notes-old.md, untitled-7.md") });
      await agent.say(messageId, " Done: the 3 old drafts are deleted.");
    } else {
      await agent.say(messageId, " Okay, I left the drafts alone.");
    }
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
    agent.part({ type: "reasoning", messageId: subMessageId, text: "Search first, then summarise the top sources." }, delegateId);
    await agent.say(subMessageId, "Searching for sources.", delegateId);
    agent.part({ type: "tool-call", messageId: subMessageId, id: searchId, name: "web_search", input: { query: userText, limit: 3 } }, delegateId);
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
    agent.part({ type: "error", error: "Couldn't reach the model: the connection was reset.", code: "network" });
  },
  // Retry sends resumable(messages): the conversation through the finished get_weather call.
  async resume(agent, { assistantMessage }) {
    await agent.say(assistantMessage.id, "In Lisbon it is 21 °C and sunny, with a light wind.");
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
    }
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
    agent.rawLine(JSON.stringify({ type: "part", part: { type: "tool-call", messageId, id: 42, name: "broken", input: {} } }));
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
    await agent.say(messageId, "This reply carries a line that is not JSON:");
    agent.rawLine('{"type": "part", "part": {"type": "text-delta", "text": ');
    await agent.say(messageId, " this text must never show.");
    agent.part({ type: "finish", reason: "stop" });
  },
};

const SCENARIOS = [approval, delegation, failure, longAnswer, malformedFrame, garbledFrame];

const textOf = (message) =>
  message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");

/**
 * Picks the run for a request's messages: by the last user message's text, and when the
 * conversation ends with an assistant message (a Retry after a finished tool call), the
 * scenario's continuation of it.
 * Returns { name, play(agent) } or null when there is no user message to answer.
 */
export function pickRun(messages) {
  const userIndex = messages.findLastIndex((message) => message.role === "user");
  if (userIndex === -1) return null;
  const userText = textOf(messages[userIndex]);
  const scenario = SCENARIOS.find((candidate) => candidate.matches.test(userText)) ?? plain;
  const last = messages[messages.length - 1];
  if (last.role === "assistant" && scenario.resume) {
    return { name: `${scenario.name} (resumed)`, play: (agent) => scenario.resume(agent, { userText, assistantMessage: last }) };
  }
  return { name: scenario.name, play: (agent) => scenario.play(agent, { userText }) };
}
