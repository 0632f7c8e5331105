//! One agent run over the demo's NDJSON actions endpoint (`POST /api/chat/actions`, one action
//! a line): the request, then every line of the response read as a `SessionAction` and handed
//! on. Every way a run can go wrong ends it with an error part, so the page shows it with
//! Retry; an abort (Stop, unmount) is not an error: the run just ends.

use std::rc::Rc;

use chat_session_reducer::core::model::{
    AgentMessage, AgentStreamPart, SessionAction, SessionErrorCode,
};
use js_sys::{Function, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ReadableStreamDefaultReader, RequestInit, Response};

/// Where the page's runs go: an endpoint and the `fetch` that reaches it. The page uses the
/// window's `fetch`; a test passes its own, which answers with recorded frames.
#[derive(Clone)]
pub struct Transport {
    url: String,
    fetch: Function,
}

impl Transport {
    /// The demo's endpoint through the window's `fetch`.
    pub fn fetch(url: &str) -> Self {
        let fetch = web_sys::window()
            .and_then(|window| Reflect::get(&window, &"fetch".into()).ok())
            .and_then(|fetch| fetch.dyn_into::<Function>().ok())
            .unwrap_or_else(|| Function::new_no_args("throw new TypeError('no fetch here')"));
        Transport::with_fetch(url, fetch)
    }

    /// `url` through `fetch`, a function with `window.fetch`'s signature.
    pub fn with_fetch(url: &str, fetch: Function) -> Self {
        Transport {
            url: url.to_owned(),
            fetch,
        }
    }
}

/// An action that ends the top-level run: its `finish` or `error` (a nested one ends a sub-run).
pub fn ends_run(action: &SessionAction) -> bool {
    match action {
        SessionAction::Part { part, within: None } => {
            matches!(
                part,
                AgentStreamPart::Finish { .. } | AgentStreamPart::Error { .. }
            )
        }
        SessionAction::Batch { actions } => actions.iter().any(ends_run),
        _ => false,
    }
}

/// The error part that ends a run that went wrong.
pub fn run_failed(message: String, code: Option<SessionErrorCode>) -> SessionAction {
    SessionAction::Part {
        part: AgentStreamPart::Error {
            error: message,
            code,
        },
        within: None,
    }
}

/// Why a run stopped before its last frame.
enum Failure {
    /// Stop or unmount: nothing to show.
    Aborted,
    /// Shown as the session's error: its message and code.
    Failed(String, Option<SessionErrorCode>),
}

/// Runs one request with `messages` as its body and hands each action of the answer to
/// `deliver`, up to the one that ends the run (the rest of the body is read and dropped, so the
/// request ends as the server ends it). Nothing is delivered once `signal` has aborted.
pub async fn stream_run(
    transport: &Transport,
    messages: &[Rc<AgentMessage>],
    signal: &AbortSignal,
    deliver: &mut dyn FnMut(SessionAction),
) {
    match read_reply(transport, messages, signal, deliver).await {
        Ok(true) => {}
        Ok(false) => deliver(run_failed(
            "The connection closed before the reply was finished.".into(),
            Some(SessionErrorCode::Network),
        )),
        Err(_) if signal.aborted() => {}
        Err(Failure::Aborted) => {}
        Err(Failure::Failed(message, code)) => deliver(run_failed(message, code)),
    }
}

/// The request, then its lines; whether the frame that ends the run came.
async fn read_reply(
    transport: &Transport,
    messages: &[Rc<AgentMessage>],
    signal: &AbortSignal,
    deliver: &mut dyn FnMut(SessionAction),
) -> Result<bool, Failure> {
    let response = post(transport, messages, signal).await?;
    if !response.ok() {
        let code = match response.status() {
            429 => SessionErrorCode::RateLimited,
            403 => SessionErrorCode::ChatDisabled,
            400..=499 => SessionErrorCode::BadRequest,
            _ => SessionErrorCode::Network,
        };
        let message = format!(
            "The agent refused the request (HTTP {}).",
            response.status()
        );
        return Err(Failure::Failed(message, Some(code)));
    }
    let Some(body) = response.body() else {
        return Err(network("The agent answered with an empty response."));
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut lines = Lines::default();
    let mut ended = false;
    let mut index = 0;
    while let Some(chunk) = read_chunk(&reader).await? {
        for line in lines.push(&chunk) {
            index += 1;
            if ended || signal.aborted() {
                continue;
            }
            let action = action_of(&line, index - 1)?;
            ended = ends_run(&action);
            deliver(action);
        }
    }
    Ok(ended)
}

/// `fetch(url, { method: "POST", body: { messages } })`, the response once its headers came.
async fn post(
    transport: &Transport,
    messages: &[Rc<AgentMessage>],
    signal: &AbortSignal,
) -> Result<Response, Failure> {
    let body = serde_json::json!({ "messages": messages }).to_string();
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&body.into());
    init.set_signal(Some(signal));
    let headers = js_sys::Object::new();
    let _ = Reflect::set(&headers, &"content-type".into(), &"application/json".into());
    let _ = Reflect::set(&headers, &"accept".into(), &"application/x-ndjson".into());
    init.set_headers(&headers);
    let promise = transport
        .fetch
        .call2(&JsValue::UNDEFINED, &transport.url.as_str().into(), &init)
        .map_err(unreachable_agent)?;
    let response = JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(unreachable_agent)?;
    response
        .dyn_into::<Response>()
        .map_err(|_| network("The agent's answer is not a response."))
}

/// The next chunk of the body, `None` at its end.
async fn read_chunk(reader: &ReadableStreamDefaultReader) -> Result<Option<Vec<u8>>, Failure> {
    let result = JsFuture::from(reader.read())
        .await
        .map_err(unreachable_agent)?;
    if Reflect::get(&result, &"done".into()).is_ok_and(|done| done.is_truthy()) {
        return Ok(None);
    }
    let value = Reflect::get(&result, &"value".into()).map_err(unreachable_agent)?;
    Ok(Some(Uint8Array::new(&value).to_vec()))
}

/// A line of the answer as a checked action; a malformed one names its frame (`stream[N]`).
fn action_of(line: &[u8], index: usize) -> Result<SessionAction, Failure> {
    serde_json::from_slice(line).map_err(|error| {
        Failure::Failed(
            format!("The agent sent a malformed frame, so this reply was stopped: stream[{index}]: {error}"),
            None,
        )
    })
}

fn network(message: &str) -> Failure {
    Failure::Failed(message.into(), Some(SessionErrorCode::Network))
}

fn unreachable_agent(error: JsValue) -> Failure {
    if Reflect::get(&error, &"name".into()).is_ok_and(|name| name == "AbortError") {
        return Failure::Aborted;
    }
    let reason = Reflect::get(&error, &"message".into())
        .ok()
        .and_then(|message| message.as_string())
        .unwrap_or_else(|| format!("{error:?}"));
    network(&format!("Couldn't reach the agent: {reason}"))
}

/// Splits a byte stream into lines, however its chunks cut them; blank lines are skipped.
#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
}

impl Lines {
    fn push(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        self.pending.extend_from_slice(chunk);
        let Some(last_newline) = self.pending.iter().rposition(|&byte| byte == b'\n') else {
            return Vec::new();
        };
        let rest = self.pending.split_off(last_newline + 1);
        let complete = std::mem::replace(&mut self.pending, rest);
        complete
            .split(|&byte| byte == b'\n')
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .map(<[u8]>::to_vec)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

    use super::Lines;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn lines_are_whole_however_the_chunks_cut_them() {
        let mut lines = Lines::default();
        assert!(lines.push(b"{\"a\":").is_empty());
        assert_eq!(
            lines.push(b"1}\n\n{\"b\"").as_slice(),
            [b"{\"a\":1}".to_vec()]
        );
        assert_eq!(lines.push(b":2}\n").as_slice(), [b"{\"b\":2}".to_vec()]);
    }
}
