import { forwardRef, useCallback, useMemo, useRef, useState } from "react";
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

/**
 * The top-level conversation, virtualised by react-virtuoso: only the rows in view are in the
 * DOM, rows keyed by message id keep their identity, and older pages (useAgentSession's
 * `loadOlder`) load as the top comes into view, put in front without moving what the user reads.
 */
export function MessageList({ session, hasOlder, loadOlder }: Older & { session: SessionState }) {
  const rows = useMemo(() => rowsOf(session.messages, session), [session]);
  const first = useFirstItemIndex(rows);
  const context = useMemo(() => ({ hasOlder, loadOlder }), [hasOlder, loadOlder]);
  const pin = usePinnedToEnd();
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
      scrollerRef={pin.scrollerRef}
      followOutput={pin.follow}
      totalListHeightChanged={pin.keepAtEnd}
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

/**
 * Whether the view stays at the end: until the user scrolls up, and again once they are back at
 * the end. Virtuoso's own "at bottom" turns false as soon as the streaming row grows past the
 * view, so it is the scroll's direction that decides; a growing list is then scrolled to its end.
 */
function usePinnedToEnd() {
  const pinned = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  const scrollerRef = useCallback((element: HTMLElement | Window | null) => {
    if (!(element instanceof HTMLElement)) return;
    scroller.current = element;
    let last = element.scrollTop;
    element.addEventListener("scroll", () => {
      const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - 2;
      if (atEnd) pinned.current = true;
      else if (element.scrollTop < last) pinned.current = false;
      last = element.scrollTop;
    });
  }, []);
  const follow = useCallback(() => (pinned.current ? "auto" : false), []);
  const keepAtEnd = useCallback(() => {
    const element = scroller.current;
    if (pinned.current && element !== null) element.scrollTop = element.scrollHeight;
  }, []);
  return { scrollerRef, follow, keepAtEnd };
}
