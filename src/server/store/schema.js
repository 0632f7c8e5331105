// The SQL schema both stores share (PGlite and PostgreSQL), created on first use. A conversation
// is a row with its active path's message ids, its forks (the branches set aside, rewritten only
// when they change) and the rest of its state; each message of that path is a row of its own, so
// a save rewrites only the messages that changed.
//
// Messages and states are `json`, not `jsonb`: json keeps the text as written, so a state read
// back is the same JSON, key order included, and a "\u0000" in a model's text is stored (jsonb
// reorders keys and rejects it).

/** This release's schema version, kept in chat_schema's row `name = SCHEMA_NAME`. */
export const SCHEMA_VERSION = 1;
export const SCHEMA_NAME = "chat-session-reducer";

// Taken (for the transaction) while the schema is created or migrated, so that two instances
// starting at once do not race on `create table`.
export const SCHEMA_LOCK = 7_264_091_823;

export const versionTable = `create table if not exists chat_schema (
  name text primary key,
  version integer not null
)`;

/** The statements that create version SCHEMA_VERSION on an empty database. */
export const schemaStatements = [
  `create table if not exists chat_conversations (
    owner text not null,
    id text not null,
    title text not null,
    title_given boolean not null default false,
    status text not null,
    updated_at timestamptz not null default now(),
    saved bigint not null,
    message_ids json not null,
    state json not null,
    forks json,
    primary key (owner, id)
  )`,
  `create sequence if not exists chat_conversations_saved`,
  `create index if not exists chat_conversations_newest on chat_conversations (owner, saved desc)`,
  `create index if not exists chat_conversations_streaming on chat_conversations (status) where status = 'streaming'`,
  `create table if not exists chat_messages (
    owner text not null,
    conversation_id text not null,
    id text not null,
    message json not null,
    primary key (owner, conversation_id, id),
    foreign key (owner, conversation_id) references chat_conversations (owner, id) on delete cascade
  )`,
];

/**
 * The statements that take a database from version `n` to `n + 1`, by `n`: a later release adds
 * an entry here and raises SCHEMA_VERSION; the store runs the missing ones in order, in the
 * transaction that holds SCHEMA_LOCK, and records the new version in the same transaction.
 * @type {Record<number, string[]>}
 */
export const migrations = {};
