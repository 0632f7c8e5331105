// Resolves the package's own name to the built pkg/, so src/server/*.js, which imports
// "chat-session-reducer" and its subpaths by name (the packer rewrites them), runs from source.
const pkg = new URL("../../pkg/", import.meta.url);

export async function resolve(specifier, context, next) {
  const match = /^chat-session-reducer(?:\/(.+))?$/.exec(specifier);
  if (match === null) return next(specifier, context);
  return { url: new URL(match[1] === undefined ? "index.js" : `${match[1]}/index.js`, pkg).href, shortCircuit: true };
}
