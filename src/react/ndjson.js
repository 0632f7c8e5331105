// Newline-delimited JSON: one JSON value a line, blank lines skipped. A line that is not JSON
// throws an Error with code "invalid_json" and path "stream[N]" (N counts the non-blank lines
// from 0); leaving the loop early cancels the body.
// TEMPORARY: the chat-stream adapter's readNdjson (issue 11) replaces it when it lands.

export async function* readNdjson(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let index = 0;
  const parse = (line) => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw Object.assign(new SyntaxError(`stream[${index}]: not JSON (${error.message})`), { code: "invalid_json", path: `stream[${index}]` });
    } finally {
      index += 1;
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) if (line.trim() !== "") yield parse(line);
    }
    buffered += decoder.decode();
    if (buffered.trim() !== "") yield parse(buffered);
  } finally {
    // A body that failed or was aborted rejects here again; the caller has already seen why.
    await reader.cancel().catch(() => {});
  }
}
