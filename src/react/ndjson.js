// Newline-delimited JSON: one JSON value a line, blank lines skipped. A line that is not JSON
// throws a coded error naming the line, and leaving the loop early cancels the body.

export async function* readNdjson(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let lineNumber = 0;
  const parse = (line) => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw Object.assign(new SyntaxError(`line ${lineNumber}: not JSON (${error.message})`), { code: "invalid", path: `line ${lineNumber}` });
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) {
        lineNumber += 1;
        if (line.trim() !== "") yield parse(line);
      }
    }
    buffered += decoder.decode();
    lineNumber += 1;
    if (buffered.trim() !== "") yield parse(buffered);
  } finally {
    // A body that failed or was aborted rejects here again; the caller has already seen why.
    await reader.cancel().catch(() => {});
  }
}
