import { Chat } from "./chat";

// A server component page holding the client-side chat: the server renders the chat's first
// (empty) state; the conversation stored in the tab appears after hydration.
export default function Page() {
  return (
    <main>
      <h1>Support chat</h1>
      <Chat />
    </main>
  );
}
