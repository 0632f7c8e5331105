// The SessionStore over SQL, shared by PGlite and PostgreSQL: every query and all the logic are
// here; an implementation only gives `query(sql, params)` and `transaction(fn)` (schema.js has
// the tables).

import { codedError, invalid, invalidInput } from "../../shared/coded-error.js";
import { pageForks } from "../page.js";
import { migrations, SCHEMA_LOCK, SCHEMA_NAME, SCHEMA_VERSION, schemaStatements, versionTable } from "./schema.js";

/**
 * @typedef {(sql: string, params?: unknown[]) => Promise<any[]>} Query
 * @typedef {{ query: Query, transaction: <T>(fn: (query: Query) => Promise<T>) => Promise<T>, close: () => Promise<void> }} Database
 */

const TITLE_LENGTH = 80;
const DEFAULT_TITLE = "New conversation";
const DEFAULT_LIMIT = 100;

const upsertConversation = `insert into chat_conversations
    (owner, id, title, title_given, status, updated_at, saved, message_ids, state, forks)
  values ($1, $2, $3, $4, $5, now(), nextval('chat_conversations_saved'), $6, $7, $9)
  on conflict (owner, id) do update set
    title = case when excluded.title_given or not chat_conversations.title_given
      then excluded.title else chat_conversations.title end,
    title_given = chat_conversations.title_given or excluded.title_given,
    status = excluded.status,
    updated_at = excluded.updated_at,
    saved = excluded.saved,
    message_ids = excluded.message_ids,
    state = excluded.state,
    forks = case when $8 then excluded.forks else chat_conversations.forks end
  returning (xmax = 0) as inserted`;

const deleteMessages = `delete from chat_messages
  where owner = $1 and conversation_id = $2 and id = any($3::text[])`;

const deleteMessagesOffPath = `delete from chat_messages
  where owner = $1 and conversation_id = $2 and not (id = any($3::text[]))`;

const upsertMessages = `insert into chat_messages (owner, conversation_id, id, message)
  select $1, $2, id, message from unnest($3::text[], $4::json[]) as changed(id, message)
  on conflict (owner, conversation_id, id) do update set message = excluded.message`;

// One statement, so one snapshot: a save landing meanwhile is seen whole or not at all.
const selectConversation = `select c.title, c.status, c.updated_at, c.message_ids, c.state, c.forks,
    (select json_agg(m.message) from chat_messages m
      where m.owner = c.owner and m.conversation_id = c.id) as messages
  from chat_conversations c where c.owner = $1 and c.id = $2`;

// A page by position on the path (the ids' order in message_ids), one statement: only the page's
// message rows are read, and the id of the message just before it (its forks' `after`).
// `bound` is the cursor's position (1-based; past the end when there is none), null when
// the cursor names no message of the path.
const selectPage = `with path as (
    select ids.id, ids.at from chat_conversations c,
      json_array_elements_text(c.message_ids) with ordinality as ids(id, at)
    where c.owner = $1 and c.id = $2
  ), bound as (
    select case when $3::text is null then (select count(*) + 1 from path)
      else (select min(at) from path where id = $3::text) end as at
  )
  select c.state, c.forks, b.at as bound,
    (select json_agg(m.message order by p.at) from path p join chat_messages m
      on m.owner = c.owner and m.conversation_id = c.id and m.id = p.id
      where p.at < b.at and p.at >= b.at - $4::int) as messages,
    (select id from path where at = b.at - $4::int - 1) as previous
  from chat_conversations c, bound b where c.owner = $1 and c.id = $2`;

const selectList = `select id, title, status, updated_at from chat_conversations
  where owner = $1 order by saved desc limit $2`;

/**
 * A SessionStore on `open()`'s database, opened and its schema made ready on first use.
 * @param {() => Promise<Database>} open
 */
export function createSqlStore(open) {
  /** @type {Promise<Database> | undefined} */
  let ready;
  let closed = false;
  // Per conversation, the save in flight: saves of one conversation land in the order made.
  const saving = new Map();
  // Conversations whose last save failed: the next one writes every message, whatever `previous` says.
  const unsure = new Set();

  function database() {
    if (closed) return Promise.reject(codedError(new Error("store: the store is closed"), "closed"));
    if (!ready) {
      const opening = openReady(open);
      ready = opening;
      // A database that failed to open (down at startup) is tried again at the next call.
      opening.catch(() => ready === opening && (ready = undefined));
    }
    return ready;
  }

  return {
    async load(owner, id) {
      checkKey(owner, id);
      const db = await database();
      const rows = await db.query(selectConversation, [owner, id]).catch(rethrow(`loading ${JSON.stringify(id)} failed`));
      if (!rows.length) return undefined;
      const row = rows[0];
      return { id, owner, state: stateOf(row, id), title: row.title, status: row.status, updatedAt: isoTime(row.updated_at) };
    },

    async save(owner, id, state, previous, meta) {
      checkKey(owner, id);
      const row = conversationRow(state, meta);
      if (previous !== undefined) checkMessages(previous, "previous");
      const key = keyOf(owner, id);
      const last = saving.get(key) ?? Promise.resolve();
      const write = last.then(async () => {
        const db = await database();
        const full = unsure.has(key) || previous === undefined;
        await db.transaction((query) => writeConversation(query, owner, id, state, full ? undefined : previous, row)).catch((error) => {
          unsure.add(key);
          throw storeError(`saving ${JSON.stringify(id)} failed`, error);
        });
        unsure.delete(key);
      });
      const settled = write.catch(() => {});
      saving.set(key, settled);
      settled.then(() => saving.get(key) === settled && saving.delete(key));
      return await write;
    },

    async page(owner, id, { before, limit }) {
      checkKey(owner, id);
      if (before !== undefined) checkText(before, "before");
      if (!Number.isInteger(limit) || limit < 1) throw invalid("limit", "a positive integer");
      const db = await database();
      const rows = await db.query(selectPage, [owner, id, before ?? null, limit]).catch(rethrow(`reading a page of ${JSON.stringify(id)} failed`));
      if (!rows.length) return undefined;
      const row = rows[0];
      const state = row.state;
      if (row.bound === null) return { state, page: undefined };
      const messages = row.messages ?? [];
      const start = Number(row.bound) - limit;
      const older = start > 1 && messages.length > 0 ? messages[0].id : null;
      return { state, page: { messages, forks: pageForks(row.forks ?? undefined, messages, start > 1 ? row.previous : null), older } };
    },

    async list(owner, options = {}) {
      checkOwner(owner);
      const { limit = DEFAULT_LIMIT } = options;
      if (!Number.isInteger(limit) || limit < 1) throw invalid("options.limit", "a positive integer");
      const db = await database();
      const rows = await db.query(selectList, [owner, limit]).catch(rethrow("listing conversations failed"));
      return rows.map((row) => ({ id: row.id, title: row.title, status: row.status, updatedAt: isoTime(row.updated_at) }));
    },

    async delete(owner, id) {
      checkKey(owner, id);
      const db = await database();
      await saving.get(keyOf(owner, id));
      const sql = "delete from chat_conversations where owner = $1 and id = $2 returning id";
      const rows = await db.query(sql, [owner, id]).catch(rethrow(`deleting ${JSON.stringify(id)} failed`));
      return rows.length > 0;
    },

    async streaming() {
      const db = await database();
      const sql = "select owner, id from chat_conversations where status = 'streaming' order by saved";
      const rows = await db.query(sql).catch(rethrow("listing streaming conversations failed"));
      return rows.map((row) => ({ owner: row.owner, id: row.id }));
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(saving.values());
      const db = await ready?.catch(() => undefined);
      await db?.close();
    },
  };
}

/** `open()`'s database with its schema ready; closed again when that fails. */
async function openReady(open) {
  const db = await open().catch((error) => {
    throw error?.code === "missing_dependency" ? error : storeError("opening the database failed", error);
  });
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error?.code === "schema" ? error : storeError("opening the database failed", error);
  }
}

/** Creates the schema on an empty database, migrates an older one, refuses a newer one. */
async function migrate(db) {
  await db.transaction(async (query) => {
    await query("select pg_advisory_xact_lock($1)", [String(SCHEMA_LOCK)]);
    await query(versionTable);
    const rows = await query("select version from chat_schema where name = $1", [SCHEMA_NAME]);
    let version = rows[0]?.version;
    if (version === undefined) {
      for (const statement of schemaStatements) await query(statement);
      await query("insert into chat_schema (name, version) values ($1, $2)", [SCHEMA_NAME, SCHEMA_VERSION]);
      return;
    }
    if (version > SCHEMA_VERSION) {
      const message = `store: the database's schema is version ${version}, newer than this release's ${SCHEMA_VERSION}: upgrade chat-session-reducer`;
      throw codedError(new Error(message), "schema");
    }
    for (; version < SCHEMA_VERSION; version += 1) {
      for (const statement of migrations[version]) await query(statement);
    }
    await query("update chat_schema set version = $2 where name = $1", [SCHEMA_NAME, SCHEMA_VERSION]);
  });
}

/** The statements of one save: the conversation row, then the messages that left the path or changed. */
async function writeConversation(query, owner, id, state, previous, row) {
  const ids = state.messages.map((message) => message.id);
  // A reply streaming after an edit leaves the forks the same object: their (large) JSON stays as stored.
  const forksChanged = previous === undefined || state.forks !== previous.forks;
  const forks = forksChanged && state.forks !== undefined ? JSON.stringify(state.forks) : null;
  const [{ inserted }] = await query(upsertConversation, [owner, id, row.title, row.titleGiven, state.status, JSON.stringify(ids), row.state, forksChanged, forks]);
  // Not there (deleted since `previous`, by another instance too): nothing of `previous` is stored, so write it all.
  if (inserted && previous !== undefined) return writeConversation(query, owner, id, state, undefined, row);
  if (previous === undefined) {
    await query(deleteMessagesOffPath, [owner, id, ids]);
  } else {
    const onPath = new Set(ids);
    const gone = previous.messages.map((message) => message.id).filter((messageId) => !onPath.has(messageId));
    if (gone.length) await query(deleteMessages, [owner, id, gone]);
  }
  const changed = changedMessages(state.messages, previous?.messages);
  if (changed.length) {
    await query(upsertMessages, [owner, id, changed.map((message) => message.id), changed.map((message) => JSON.stringify(message))]);
  }
}

/** The messages of `messages` not in `before`: the same object at the same index, else under the same id. */
function changedMessages(messages, before) {
  if (before === undefined) return messages;
  const byId = new Map(before.map((message) => [message.id, message]));
  return messages.filter((message, index) => before[index] !== message && byId.get(message.id) !== message);
}

/** What the conversation row holds of `state` (checked first: bad input writes nothing). */
function conversationRow(state, meta) {
  checkMessages(state, "state");
  if (typeof state.status !== "string") throw invalid("state.status", "a string");
  if (meta !== undefined && (meta === null || typeof meta !== "object")) throw invalid("meta", "an object");
  const given = meta?.title;
  if (given !== undefined) checkText(given, "meta.title");
  // `null` keeps the place of the fields stored elsewhere, so the state read back has its keys in the same order.
  const rest = JSON.stringify(state.forks === undefined ? { ...state, messages: null } : { ...state, messages: null, forks: null });
  return { title: given ?? titleOf(state.messages), titleGiven: given !== undefined, state: rest };
}

/** The first user message's text, on one line, cut to TITLE_LENGTH characters; else DEFAULT_TITLE. */
function titleOf(messages) {
  const first = messages.find((message) => message.role === "user");
  const parts = Array.isArray(first?.parts) ? first.parts : [];
  const text = parts
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => part.text.slice(0, 2 * TITLE_LENGTH))
    .join(" ")
    .replace(/[\s\u0000-\u001f\u007f]+/g, " ")
    .trim();
  return text ? Array.from(text).slice(0, TITLE_LENGTH).join("").trim() : DEFAULT_TITLE;
}

/** The stored state: the conversation row's fields with the message rows in the path's order. */
function stateOf(row, id) {
  const byId = new Map((row.messages ?? []).map((message) => [message.id, message]));
  const messages = row.message_ids.map((messageId) => {
    const message = byId.get(messageId);
    if (message === undefined) throw codedError(new Error(`store: conversation ${JSON.stringify(id)} lacks its message ${JSON.stringify(messageId)}`), "internal");
    return message;
  });
  return Object.assign(row.state, "forks" in row.state ? { messages, forks: row.forks } : { messages });
}

function checkMessages(state, path) {
  if (state === null || typeof state !== "object") throw invalid(path, "a SessionState");
  if (!Array.isArray(state.messages)) throw invalid(`${path}.messages`, "an array");
  const seen = new Set();
  state.messages.forEach((message, index) => {
    const where = `${path}.messages[${index}]`;
    if (message === null || typeof message !== "object") throw invalid(where, "a message");
    checkText(message.id, `${where}.id`);
    if (seen.has(message.id)) throw invalidInput(`${where}.id`, `the id ${JSON.stringify(message.id)} is on the path twice`);
    seen.add(message.id);
  });
}

function checkKey(owner, id) {
  checkOwner(owner);
  checkText(id, "id");
  if (id === "") throw invalidInput("id", "expected a conversation id, got an empty string");
}

function checkOwner(owner) {
  checkText(owner, "owner");
}

// PostgreSQL's text cannot hold U+0000.
function checkText(value, path) {
  if (typeof value !== "string") throw invalid(path, "a string");
  if (value.includes("\u0000")) throw invalidInput(path, "a NUL character (U+0000) cannot be stored");
}

const keyOf = (owner, id) => JSON.stringify([owner, id]);

const isoTime = (value) => new Date(value).toISOString();

/** The database's `error` as the store's: `code: "store"`, the original as `cause`. */
function storeError(what, error) {
  return codedError(new Error(`store: ${what}: ${error?.message ?? error}`, { cause: error }), "store");
}

const rethrow = (what) => (error) => {
  throw storeError(what, error);
};
