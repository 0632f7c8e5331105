// Where run.mjs installed the packed package: the scratch consumer project these tests build from.
import { existsSync } from "node:fs";
import { join } from "node:path";

export function consumerProject() {
  const dir = process.env.CONSUMER_PROJECT;
  if (!dir || !existsSync(join(dir, "node_modules", "chat-session-reducer"))) {
    throw new Error("CONSUMER_PROJECT is not a project with chat-session-reducer installed: run tests/consumers/run.mjs");
  }
  return dir;
}
