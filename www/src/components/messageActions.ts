import { createContext } from "react";

/** What the buttons under a top-level message do: the hook's branch functions. */
export interface MessageActions {
  /** While a reply streams the versions cannot be switched (the run writes into the one shown). */
  streaming: boolean;
  edit(messageId: string, text: string): void;
  regenerate(messageId: string): void;
  switchBranch(after: string | null, to: number): void;
}

export const MessageActionsContext = createContext<MessageActions | null>(null);
