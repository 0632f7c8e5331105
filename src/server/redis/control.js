// The control channel between instances (Redis pub/sub): a command about a conversation's run
// (its Stop) is published to every instance, the one holding the run carries it out and says so,
// and the sender waits for that answer, for a bounded time (the holder may have died).

import { connectRedis, drop } from "./connection.js";

/**
 * @param {{ url?: string, client?: any, channel?: string, answerWithinMs?: number, onError?: (error: unknown) => void }} options
 */
export function createRedisControl(options = {}) {
  const { channel = "chat-session-reducer:control", answerWithinMs = 2_000 } = options;
  const onError = options.onError ?? ((error) => console.error("chat-session-reducer/server (redis control):", error));
  const redis = connectRedis(options, "createRedisControl", onError);
  const instance = crypto.randomUUID();
  /** The answers this instance waits for, by request id. @type {Map<string, () => void>} */
  const waiting = new Map();
  /** @type {((command: any) => Promise<boolean>) | undefined} */
  let handler;

  const publish = async (message) => (await redis.ready).sendCommand(["PUBLISH", channel, JSON.stringify(message)]);

  async function heard(text) {
    const message = JSON.parse(text);
    if (message.answer !== undefined) {
      if (message.to === instance) waiting.get(message.answer)?.();
      return;
    }
    if (message.from === instance || handler === undefined) return;
    if (await handler(message.command)) await publish({ answer: message.request, to: message.from });
  }
  const subscriber = redis.duplicate().then(async (connection) => {
    await connection.subscribe(channel, (text) => void heard(text).catch(onError));
    return connection;
  });
  subscriber.catch(onError);

  return {
    /** Subscribed: commands sent from now on are heard here. */
    ready: subscriber.then(() => undefined),
    /** `handle(command)` carries out a command another instance sent; true when it did (this instance holds the run). */
    listen(handle) {
      handler = handle;
    },
    /** Sends `command` to the other instances; true once one carried it out, false when none did within `answerWithinMs`. */
    async send(command) {
      await subscriber;
      const request = crypto.randomUUID();
      let timer;
      const answered = new Promise((resolve) => {
        waiting.set(request, () => resolve(true));
        timer = setTimeout(() => resolve(false), answerWithinMs);
      });
      try {
        await publish({ request, from: instance, command });
        return await answered;
      } finally {
        clearTimeout(timer);
        waiting.delete(request);
      }
    },
    async close() {
      const connection = await subscriber.catch(() => undefined);
      if (connection?.isOpen) drop(connection);
      await redis.close();
    },
  };
}
