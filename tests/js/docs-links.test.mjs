// The repository's documents stay navigable: every relative link in README.md, CHANGELOG.md and
// docs/*.md names a file that exists, and a link to a heading names one the target has. Links that
// leave the repository (SPEC.md is kept beside it) and absolute URLs are not checked here; the
// packed README's links are checked by tests/consumers. The README stays a README for users.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const documents = ["README.md", "CHANGELOG.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

// The text outside fenced code blocks and inline code, where a link is a link.
function prose(markdown) {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "code");
}

// GitHub's anchor for a heading: lower case, punctuation other than - and _ dropped, spaces as -.
function anchor(heading) {
  return heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

function anchorsOf(file) {
  const headings = [...prose(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]));
  return new Set(headings);
}

function linksOf(document) {
  const text = prose(readFileSync(join(root, document), "utf8"));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

for (const document of documents) {
  test(`${document}: every relative link names a file of the repository, and a heading it has`, () => {
    const broken = [];
    for (const link of linksOf(document)) {
      if (/^[a-z][a-z+.-]*:/i.test(link)) continue;
      const [path, hash] = link.split("#");
      const target = path === "" ? join(root, document) : join(root, dirname(document), decodeURIComponent(path));
      if (relative(root, target).startsWith(`..${sep}`)) continue;
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
      } else if (hash !== undefined && statSync(target).isFile() && target.endsWith(".md") && !anchorsOf(target).has(hash)) {
        broken.push(`${link}: no such heading`);
      }
    }
    assert.deepEqual(broken, []);
  });
}

// 480 since the server's section (470 since the crate's "From Rust"): the detail of every part lives in docs/.
test("the README stays a README for users: at most 480 lines", () => {
  const lines = readFileSync(join(root, "README.md"), "utf8").split("\n").length - 1;
  assert.ok(lines <= 480, `README.md has ${lines} lines`);
});

test("the anchor of a heading is GitHub's", () => {
  assert.equal(anchor("The design card's crates"), "the-design-cards-crates");
  assert.equal(anchor("Layout of `src/`"), "layout-of-src");
  assert.equal(anchor("serde-wasm-bindgen: not used; the package reads its input in JavaScript"), "serde-wasm-bindgen-not-used-the-package-reads-its-input-in-javascript");
});
