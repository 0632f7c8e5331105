// An anonymous owner per browser, in a signed cookie: the owner id and its HMAC-SHA256 under the
// app's secret (Web Crypto, so any runtime and every instance sharing the secret accept it).
// HttpOnly and SameSite=Lax keep it from scripts and other sites; a cookie whose signature does
// not match is refused, never replaced (a forged owner must not become a new one silently).

import { invalid } from "../shared/coded-error.js";

const encoder = new TextEncoder();

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function fromBase64url(text) {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function cookieOf(request, name) {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at !== -1 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * An `authorize(request)` for createChatServer that gives each browser an anonymous owner: the
 * owner in the request's cookie when its signature holds, a new one (with the Set-Cookie that
 * keeps it) when there is none, and `null` (401) for a cookie that was forged or tampered with.
 * @param {{ secret: string, name?: string, maxAgeSeconds?: number, secure?: boolean }} options
 */
export function ownerCookie({ secret, name = "chat_owner", maxAgeSeconds = 400 * 24 * 3600, secure = false }) {
  if (typeof secret !== "string" || secret.length < 16) throw invalid("options.secret", "a string of at least 16 characters");
  const key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const sign = async (owner) => base64url(await crypto.subtle.sign("HMAC", await key, encoder.encode(owner)));
  const attributes = `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

  return async function authorize(request) {
    const value = cookieOf(request, name);
    if (value === undefined) {
      const owner = crypto.randomUUID();
      return { owner, headers: { "set-cookie": `${name}=${owner}.${await sign(owner)}; ${attributes}` } };
    }
    const dot = value.lastIndexOf(".");
    const owner = value.slice(0, dot);
    const signature = fromBase64url(value.slice(dot + 1));
    if (dot <= 0 || signature === undefined) return null;
    return (await crypto.subtle.verify("HMAC", await key, signature, encoder.encode(owner))) ? owner : null;
  };
}
