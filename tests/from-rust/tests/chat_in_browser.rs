//! The same tests in a browser, for `wasm-pack test --headless --chrome` (or `--firefox`): a
//! test binary runs either in Node or in a browser, so this one says "browser" and includes
//! tests/chat.rs. `wasm-pack test --node` skips it, and `--chrome` skips chat.rs.

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

include!("chat.rs");
