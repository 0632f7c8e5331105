// What the handlers say over HTTP: JSON answers and refusals, and request bodies read within a limit.

/** A JSON response; `headers` adds to it (an owner's Set-Cookie). */
export function json(status, body, headers) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

/** A refusal: `{ error: message, code, path? }` (the client's hook shows `error`). */
export function refuse(status, code, message, path, headers, extra) {
  return json(status, { error: message, code, ...(path === undefined ? {} : { path }), ...extra }, headers);
}

export const noContent = (headers) => new Response(null, { status: 204, headers });

/**
 * The request's body as JSON, read up to `limit` bytes: `{ body }`, or `{ refusal }` (413 over
 * the limit, 400 when it is not JSON or not an object).
 * @param {Request} request @param {number} limit
 */
export async function readJson(request, limit) {
  const declared = Number(request.headers.get("content-length"));
  if (declared > limit) return { refusal: refuse(413, "too_large", `the request body is over ${limit} bytes`) };
  const chunks = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        return { refusal: refuse(413, "too_large", `the request body is over ${limit} bytes`) };
      }
      chunks.push(value);
    }
  }
  let body;
  try {
    body = JSON.parse(new TextDecoder().decode(concat(chunks, size)));
  } catch {
    return { refusal: refuse(400, "invalid_json", "the request body is not JSON") };
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { refusal: refuse(400, "invalid", "body: expected a JSON object", "body") };
  }
  return { body };
}

function concat(chunks, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
