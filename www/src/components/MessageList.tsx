import { forwardRef, useMemo, useState } from "react";
import type { Ref } from "react";
import { Virtuoso } from "react-virtuoso";
import type { Components, ContextProp, ItemProps, ListProps } from "react-virtuoso";
import type { SessionState } from "chat-session-reducer";
import { MessageRow, rowsOf } from "./Conversation";
import type { Row } from "./Conversation";

/** Where the list's indexes start: room for any number of older pages put in front (virtuoso's firstItemIndex only goes down). */
const START = 1_000_000_000;

interface Older {
  hasOlder: boolean;
  loadOlder: () => Promise<void>;
}

// Virtuoso's list and rows as an <ol> of <li>s, so the page keeps its markup and styles.
const List = forwardRef<HTMLDivElement, ListProps & ContextProp<Older>>(function List({ context: _context, ...props }, ref) {
  return <ol {...props} ref={ref as Ref<HTMLOListElement>} className="messages" data-testid="messages" />;
});
function Item({ item: _row, context: _context, ...props }: ItemProps<Row> & ContextProp<Older>) {
  return <li {...props} className="message-row" />;
}
const components: Components<Row, Older> = { List, Item };

const keyOf = (_index: number, row: Row) => row.message.id;
const content = (_index: number, row: Row) => <MessageRow row={row} top />;
// Pinned to the end while the newest reply grows, unless the user scrolled up to read.
const follow = (atBottom: boolean) => (atBottom ? "auto" : false);

/**
 * The top-level conversation, virtualised by react-virtuoso: only the rows in view are in the
 * DOM, rows keyed by message id keep their identity, and older pages (useAgentSession's
 * `loadOlder`) load as the top comes into view, put in front without moving what the user reads.
 */
export function MessageList({ session, hasOlder, loadOlder }: Older & { session: SessionState }) {
  const rows = useMemo(() => rowsOf(session.messages, session), [session]);
  const first = useFirstItemIndex(rows);
  const context = useMemo(() => ({ hasOlder, loadOlder }), [hasOlder, loadOlder]);
  return (
    <Virtuoso
      className="message-scroller"
      data-testid="message-scroller"
      data={rows}
      context={context}
      components={components}
      computeItemKey={keyOf}
      itemContent={content}
      firstItemIndex={first}
      initialTopMostItemIndex={rows.length - 1}
      followOutput={follow}
      startReached={() => {
        if (hasOlder) void loadOlder();
      }}
      increaseViewportBy={400}
    />
  );
}

/**
 * Virtuoso's `firstItemIndex`: down by the number of rows put in front of the first one (an
 * older page), so it keeps the position; any other change (a reset, another thread) keeps it.
 */
function useFirstItemIndex(rows: Row[]): number {
  const firstId = rows[0]?.message.id;
  const [anchor, setAnchor] = useState({ id: firstId, index: START });
  if (firstId !== anchor.id) {
    const moved = rows.findIndex((row) => row.message.id === anchor.id);
    const index = moved > 0 ? anchor.index - moved : anchor.index;
    setAnchor({ id: firstId, index });
    return index;
  }
  return anchor.index;
}
