import { useEffect, useLayoutEffect, useRef } from "react";
import type { AgentMessage } from "chat-session-reducer";

/**
 * The top of the conversation: once it scrolls into view and the server has older messages, the
 * next older page is loaded (useAgentSession's `loadOlder`, a `prepend`), and the page is scrolled
 * down by what was put in front, so the message the user was reading stays where it was.
 */
export function OlderHistory({ hasOlder, loadOlder, first }: { hasOlder: boolean; loadOlder: () => Promise<void>; first: AgentMessage | undefined }) {
  const top = useRef<HTMLDivElement>(null);
  // The document's height before the page went in front, until the first message changes.
  const before = useRef<number | undefined>(undefined);

  useEffect(() => {
    const sentinel = top.current;
    if (!hasOlder || sentinel === null) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting) || before.current !== undefined) return;
      before.current = document.documentElement.scrollHeight;
      loadOlder().finally(() => {
        // Nothing was put in front (nothing older after all): nothing to keep.
        if (before.current !== undefined && document.documentElement.scrollHeight === before.current) before.current = undefined;
      });
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasOlder, loadOlder]);

  useLayoutEffect(() => {
    if (before.current === undefined) return;
    window.scrollBy(0, document.documentElement.scrollHeight - before.current);
    before.current = undefined;
  }, [first]);

  if (!hasOlder) return null;
  return (
    <div ref={top} className="older" data-testid="older">
      Loading older messages…
    </div>
  );
}
