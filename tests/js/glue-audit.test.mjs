// scripts/glue-audit.mjs, which the build runs on wasm-bindgen's real glue (a build with an import
// that could throw into the module fails), proved here on glue written to break each rule.
import assert from "node:assert/strict";
import { test } from "node:test";

import { throwingSources, unsafeImports } from "../../scripts/glue-audit.mjs";

const glue = (imports, modules = `"./chat_session_reducer_bg.js": import0,`) => `
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
${imports}
    };
    return {
        __proto__: null,
        ${modules}
    };
}
`;
const caught = `        __wbg_id_d4b43a687815e252: function() { return handleError(function (arg0) {
            const ret = arg0.id;
            return ret;
        }, arguments); },`;
const intrinsic = `        __wbg___wbindgen_is_undefined_be5b34249ff1fc15: function(arg0) {
            const ret = arg0 === undefined;
            return ret;
        },`;
const instanceOf = `        __wbg_instanceof_Error_74e3cca0c4a69161: function(arg0) {
            let result;
            try {
                result = arg0 instanceof Error;
            } catch (_) {
                result = false;
            }
            const ret = result;
            return ret;
        },`;
const constructor = `        __wbg_new_4416a2fe2fac9c65: function(arg0, arg1) {
            const ret = new TypeError(getStringFromWasm0(arg0, arg1));
            return ret;
        },`;

test("glue whose imports all catch, or run none of the caller's code, passes", () => {
  assert.deepEqual(unsafeImports(glue([caught, intrinsic, instanceOf, constructor].join("\n"))), []);
});

test("an import that reads a caller's value without catch is reported", () => {
  const uncaught = `        __wbg_length_b03a0fabb109b1e9: function(arg0) {
            const ret = arg0.length;
            return ret;
        },`;
  const found = unsafeImports(glue([caught, uncaught].join("\n")));
  assert.equal(found.length, 1);
  assert.match(found[0], /^__wbg_length_b03a0fabb109b1e9: not declared catch/);
});

test("a constructor given a caller's value, and console.warn, are reported", () => {
  const found = unsafeImports(
    glue(`        __wbg_new_1: function(arg0) {
            const ret = new Proxy(arg0, {});
            return ret;
        },
        __wbg_warn_2: function(arg0, arg1) {
            console.warn(arg0, arg1);
        },`),
  );
  assert.deepEqual(
    found.map((problem) => problem.split(":")[0]),
    ["__wbg_new_1", "__wbg_warn_2"],
  );
});

test("a JavaScript module passed as a namespace (its functions called without catch) is reported", () => {
  const found = unsafeImports(
    glue(caught, `"./chat_session_reducer_bg.js": import0,\n        "./snippets/x/src/wasm/text_delta.js": import1,`),
  );
  assert.equal(found.length, 1);
  assert.match(found[0], /text_delta\.js": import1: functions imported without catch/);
});

test("glue that is not wasm-bindgen's as expected is reported, not passed", () => {
  assert.equal(unsafeImports("export function x() {}").length, 1);
});

test("Rust that calls wasm-bindgen's throwing helpers is reported", () => {
  assert.deepEqual(
    throwingSources({ "src/a.rs": "let x = y.unwrap_throw();", "src/b.rs": "let x = y.unwrap();" }),
    ["src/a.rs: unwrap_throw"],
  );
});

test("wasm-bindgen's throw intrinsic passes only while the glue makes no closures", () => {
  const throwIntrinsic = `        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },`;
  assert.deepEqual(unsafeImports(glue(throwIntrinsic)), []);
  const withClosures = glue(throwIntrinsic) + "\nfunction makeMutClosure(arg0, arg1, dtor, f) {}\n";
  assert.match(unsafeImports(withClosures).join(), /__wbg___wbindgen_throw_4c88d8bf264fd984: not declared catch/);
});
