//! The page mounted in headless Chromium and driven as a user drives it, its requests answered
//! by the demo agent's own frames (agent-frames.json, recorded from www/agent by
//! record-agent.mjs): `wasm-pack test --headless --chrome`.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};
use yew_chat::{mount, Chat, Page, Transport};

wasm_bindgen_test_configure!(run_in_browser);

const AGENT_FRAMES: &str = include_str!("agent-frames.json");

#[wasm_bindgen(inline_js = r#"
// A fetch that answers a POST { messages } with the recorded lines of the agent's answer to
// that request (the one recorded for its last user message's text and its last message's
// role, which is what the agent picks its run by), a line every `paceMs`, each line cut in two
// chunks; a recording that drops errors the body after its lines. It keeps every request's
// body and whether its signal aborted.
export function mockAgent(fixture, paceMs) {
  const recordings = JSON.parse(fixture);
  const requests = [];
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    const request = { url, body, aborted: false };
    requests.push(request);
    const last = body.messages[body.messages.length - 1];
    const user = body.messages.findLast((message) => message.role === "user");
    const text = user.parts.filter((part) => part.type === "text").map((part) => part.text).join("");
    const recording = recordings.find((entry) => entry.userText === text && entry.last === last.role);
    if (!recording) return new Response(JSON.stringify({ error: `nothing recorded for ${text}` }), { status: 500 });
    const signal = init.signal;
    const encoder = new TextEncoder();
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    // Pulled only while the page waits on a read (highWaterMark 0), so every line is read
    // before a drop errors the body, as lines a server sent before dropping arrive.
    const lines = recording.lines.flatMap((line) => {
      const half = Math.floor(line.length / 2);
      return [line.slice(0, half), line.slice(half) + "\n"];
    });
    const stream = new ReadableStream(
      {
        start(controller) {
          signal.addEventListener("abort", () => {
            request.aborted = true;
            controller.error(new DOMException("The user aborted a request.", "AbortError"));
          });
        },
        async pull(controller) {
          if (lines.length % 2 === 0) await sleep(paceMs);
          if (signal.aborted) return;
          if (lines.length > 0) controller.enqueue(encoder.encode(lines.shift()));
          else if (recording.drops) controller.error(new TypeError("network error"));
          else controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(stream, { headers: { "content-type": "application/x-ndjson" } });
  };
  return { fetch, requests };
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
"#)]
extern "C" {
    fn mockAgent(fixture: &str, pace_ms: u32) -> JsValue;
    fn sleep(ms: u32) -> Promise;
}

/// The mock agent: its fetch, and the requests it was sent.
struct Agent(JsValue);

impl Agent {
    fn new(pace_ms: u32) -> Agent {
        Agent(mockAgent(AGENT_FRAMES, pace_ms))
    }

    fn transport(&self) -> Transport {
        let fetch: Function = Reflect::get(&self.0, &"fetch".into()).unwrap().into();
        Transport::with_fetch("/api/chat/actions", fetch)
    }

    fn requests(&self) -> Vec<JsValue> {
        Array::from(&Reflect::get(&self.0, &"requests".into()).unwrap()).to_vec()
    }
}

/// The page on a fresh element of the document, its conversation stored under `key`.
struct Mounted {
    root: Element,
    page: Option<Page>,
}

impl Mounted {
    async fn new(agent: &Agent, key: &str) -> Mounted {
        let document = web_sys::window().unwrap().document().unwrap();
        let root = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&root).unwrap();
        let page = mount(root.clone(), Chat::new(agent.transport(), key));
        let mounted = Mounted {
            root,
            page: Some(page),
        };
        mounted
            .until("the page to render", |page| page.find("main").is_some())
            .await;
        mounted
    }

    /// A reload: the page taken down, then mounted again on what storage kept.
    async fn reload(&mut self, agent: &Agent, key: &str) {
        self.page.take().unwrap().unmount();
        settle().await;
        assert_eq!(
            self.root.child_element_count(),
            0,
            "the page was taken down"
        );
        self.page = Some(mount(self.root.clone(), Chat::new(agent.transport(), key)));
        self.until("the page to render again", |page| {
            page.find("main").is_some()
        })
        .await;
    }

    fn find(&self, selector: &str) -> Option<Element> {
        self.root.query_selector(selector).unwrap()
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length())
            .map(|index| list.item(index).unwrap().dyn_into().unwrap())
            .collect()
    }

    fn click(&self, selector: &str) {
        let button: HtmlElement = self
            .find(selector)
            .unwrap_or_else(|| panic!("no {selector} on the page"))
            .dyn_into()
            .unwrap();
        button.click();
    }

    fn status(&self) -> String {
        self.find("main")
            .and_then(|main| main.get_attribute("data-status"))
            .unwrap_or_default()
    }

    /// The text of each message, in order: its text parts, a line each.
    fn texts(&self) -> Vec<String> {
        self.all(".message")
            .iter()
            .map(|message| {
                let list = message.query_selector_all(".text").unwrap();
                (0..list.length())
                    .map(|index| list.item(index).unwrap().text_content().unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect()
    }

    fn send(&self, text: &str) {
        let draft: HtmlInputElement = self.find(".draft").unwrap().dyn_into().unwrap();
        draft.set_value(text);
        self.click(".send");
    }

    /// Waits (at most 10 s) until `done` holds.
    async fn until(&self, what: &str, done: impl Fn(&Mounted) -> bool) {
        for _ in 0..1000 {
            if done(self) {
                return;
            }
            JsFuture::from(sleep(10)).await.unwrap();
        }
        panic!("timed out waiting for {what}; messages: {:?}", self.texts());
    }

    /// Waits until the run is over and the messages' texts are what `done` expects.
    async fn until_done(&self, what: &str, done: impl Fn(&[String]) -> bool) {
        self.until(what, |page| {
            let texts = page.texts();
            page.status() == "idle" && texts.len() >= 2 && done(&texts)
        })
        .await;
    }

    async fn until_status(&self, status: &str) {
        self.until(&format!("status {status}"), |page| page.status() == status)
            .await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(page) = self.page.take() {
            page.unmount();
        }
        self.root.remove();
    }
}

/// Lets pending renders and tasks run.
async fn settle() {
    JsFuture::from(sleep(20)).await.unwrap();
}

fn clear(key: &str) {
    let storage = web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap();
    storage.remove_item(key).unwrap();
}

fn renders(element: &Element) -> u32 {
    element
        .get_attribute("data-renders")
        .unwrap()
        .parse()
        .unwrap()
}

fn field(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |value, key| {
        Reflect::get(&value, &(*key).into()).unwrap()
    })
}

#[wasm_bindgen_test]
async fn a_reply_streams_in_and_stop_ends_it_where_it_was() {
    let key = "yew-chat-test-stop";
    clear(key);
    let agent = Agent::new(2);
    let page = Mounted::new(&agent, key).await;
    page.send("Tell me a long story");
    page.until("the story to stream in", |page| {
        page.texts()
            .get(1)
            .is_some_and(|text| text.contains("the ships every night"))
    })
    .await;
    assert_eq!(page.status(), "streaming");
    assert_eq!(page.texts()[0], "Tell me a long story");
    let messages = page.all(".message");
    let (user_renders, reply_renders) = (renders(&messages[0]), renders(&messages[1]));
    page.until("the second paragraph", |page| {
        page.texts()[1].contains("nobody would read. The lighthouse keeper")
    })
    .await;
    // The reply renders on its frames; the user's message, the same Rc all along, never.
    let streamed = renders(&messages[1]) - reply_renders;
    assert!(
        streamed >= 10,
        "the reply rendered as it streamed: {streamed} times"
    );
    assert_eq!(
        renders(&messages[0]),
        user_renders,
        "the untouched message did not render again"
    );

    page.click(".stop");
    page.until_status("idle").await;
    let stopped = page.texts()[1].clone();
    assert!(!stopped.contains("The end."), "stopped before the end");
    assert!(page.find(".stop").is_none(), "no Stop once idle");
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(page.texts()[1], stopped, "nothing streams after Stop");
    let requests = agent.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        field(&requests[0], &["aborted"]),
        JsValue::TRUE,
        "Stop aborted the request"
    );
}

#[wasm_bindgen_test]
async fn a_dropped_connection_shows_the_error_and_retry_finishes_the_reply() {
    let key = "yew-chat-test-retry";
    clear(key);
    let agent = Agent::new(1);
    let page = Mounted::new(&agent, key).await;
    page.send("What's the weather in Lisbon?");
    page.until_status("error").await;
    // The body failed mid-reply, as the browser reports the server's dropped connection.
    let error = page.find(".error-message").unwrap().text_content().unwrap();
    assert_eq!(error, "Couldn't reach the agent: network error");
    assert_eq!(page.texts()[1], "Let me look that up.\nIn Lisbon it is");
    assert_eq!(
        page.find(".tool").unwrap().text_content().unwrap(),
        "get_weather: done"
    );

    page.click(".retry");
    page.until_done("the retried reply", |texts| texts[1].ends_with("wind."))
        .await;
    // Retry cut the reply after its finished call (resumable), and the agent went on from there.
    assert_eq!(
        page.texts()[1],
        "Let me look that up.\nIn Lisbon it is 21 °C and sunny, with a light wind."
    );
    assert!(page.find(".error").is_none());
    // What Retry sent: the conversation through the finished call.
    let requests = agent.requests();
    assert_eq!(requests.len(), 2);
    let messages = Array::from(&field(&requests[1], &["body", "messages"]));
    assert_eq!(messages.length(), 2);
    let reply = messages.get(1);
    assert_eq!(field(&reply, &["role"]), "assistant");
    let parts = Array::from(&field(&reply, &["parts"]));
    let last = parts.get(parts.length() - 1);
    assert_eq!(field(&last, &["type"]), "tool");
    assert_eq!(field(&last, &["state"]), "done");
}

#[wasm_bindgen_test]
async fn an_edit_keeps_the_old_reply_as_a_branch_to_switch_back_to() {
    let key = "yew-chat-test-branch";
    clear(key);
    let agent = Agent::new(1);
    let page = Mounted::new(&agent, key).await;
    page.send("Hello!");
    page.until_done("the greeting", |texts| {
        texts[1].ends_with("Stop me halfway.")
    })
    .await;
    let hello = page.texts();
    assert!(hello[1].starts_with("Hello! I'm a scripted agent"));
    assert!(page.find(".branch").is_none(), "no branches yet");

    edit_first_message(&page, "Write a haiku").await;
    page.until_done("the haiku", |texts| texts[1].ends_with("Saved."))
        .await;
    assert_eq!(
        page.texts(),
        ["Write a haiku", "I'll write it to a file.\nSaved."]
    );
    assert_eq!(position(&page), "2/2");

    page.click(".branch .previous");
    settle().await;
    assert_eq!(page.texts(), hello, "the first branch comes back as it was");
    assert_eq!(position(&page), "1/2");
    assert!(page
        .find(".branch .previous")
        .unwrap()
        .has_attribute("disabled"));

    page.click(".branch .next");
    settle().await;
    assert_eq!(
        page.texts(),
        ["Write a haiku", "I'll write it to a file.\nSaved."]
    );
    assert_eq!(agent.requests().len(), 2, "switching makes no request");
}

#[wasm_bindgen_test]
async fn regenerate_asks_again_and_keeps_both_replies() {
    let key = "yew-chat-test-regenerate";
    clear(key);
    let agent = Agent::new(1);
    let page = Mounted::new(&agent, key).await;
    page.send("Tell me a long story");
    page.until("some of the story", |page| {
        page.texts().get(1).is_some_and(|text| text.len() > 100)
    })
    .await;
    page.click(".stop");
    page.until_status("idle").await;
    let stopped = page.texts()[1].clone();

    page.click(".regenerate");
    page.until_done("the whole story", |texts| texts[1].ends_with("The end."))
        .await;
    // The fork follows the user's message: its "< 2/2 >" is beside the new reply.
    assert_eq!(position(&page), "2/2");
    page.click(".branch .previous");
    settle().await;
    assert_eq!(page.texts()[1], stopped);
}

#[wasm_bindgen_test]
async fn a_reload_restores_the_conversation_and_its_branches_from_storage() {
    let key = "yew-chat-test-reload";
    clear(key);
    let agent = Agent::new(1);
    let mut page = Mounted::new(&agent, key).await;
    page.send("Hello!");
    page.until_done("the greeting", |texts| {
        texts[1].ends_with("Stop me halfway.")
    })
    .await;
    edit_first_message(&page, "Write a haiku").await;
    page.until_done("the haiku", |texts| texts[1].ends_with("Saved."))
        .await;
    let before = page.texts();

    page.reload(&agent, key).await;
    assert_eq!(page.texts(), before);
    assert_eq!(page.status(), "idle");
    assert_eq!(position(&page), "2/2");
    page.click(".branch .previous");
    settle().await;
    assert_eq!(
        page.texts()[0],
        "Hello!",
        "the branch set aside was stored too"
    );
}

#[wasm_bindgen_test]
async fn a_reload_while_a_reply_streams_keeps_what_came_and_stops_it() {
    let key = "yew-chat-test-reload-streaming";
    clear(key);
    let agent = Agent::new(2);
    let mut page = Mounted::new(&agent, key).await;
    page.send("Tell me a long story");
    page.until("a second of the story", |page| {
        page.texts().get(1).is_some_and(|text| text.len() > 600)
    })
    .await;
    let shown = page.texts();

    page.reload(&agent, key).await;
    assert_eq!(page.status(), "idle", "the load rule stopped the run");
    let restored = page.texts();
    assert_eq!(restored, shown, "what streamed was kept, up to the reload");
    assert!(!restored[1].contains("The end."));
    assert_eq!(
        field(&agent.requests()[0], &["aborted"]),
        JsValue::TRUE,
        "unmount aborted the request"
    );
    JsFuture::from(sleep(100)).await.unwrap();
    assert_eq!(
        page.texts(),
        restored,
        "nothing streams into the reloaded page"
    );
}

#[wasm_bindgen_test]
async fn a_message_sent_while_a_reply_streams_waits_in_the_queue_then_gets_its_own_request() {
    let key = "yew-chat-test-queue";
    clear(key);
    let agent = Agent::new(5);
    let page = Mounted::new(&agent, key).await;
    page.send("Write a haiku");
    page.until("the reply to begin", |page| page.status() == "streaming")
        .await;
    page.send("Hello!");
    page.until("the queued message", |page| {
        page.find(".queued-text").is_some()
    })
    .await;
    assert_eq!(
        page.find(".queued-text").unwrap().text_content().unwrap(),
        "queued: Hello!"
    );
    assert_eq!(
        page.texts().len(),
        2,
        "not in the conversation while the reply streams"
    );

    page.until_done("the queued turn's reply", |texts| {
        texts.len() == 4 && texts[3].ends_with("Stop me halfway.")
    })
    .await;
    assert_eq!(
        page.texts()[..3],
        [
            "Write a haiku",
            "I'll write it to a file.\nSaved.",
            "Hello!"
        ]
    );
    assert!(page.find(".queued").is_none(), "the queue went out");
    assert_eq!(agent.requests().len(), 2, "one request for the queued turn");
}

async fn edit_first_message(page: &Mounted, text: &str) {
    page.click(".message.user .edit");
    settle().await;
    let input: HtmlInputElement = page.find(".edit-text").unwrap().dyn_into().unwrap();
    input.set_value(text);
    page.click(".edit-form .save");
    settle().await;
}

fn position(page: &Mounted) -> String {
    page.find(".branch .position")
        .unwrap()
        .text_content()
        .unwrap()
}
