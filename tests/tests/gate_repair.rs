//! The repair loop: re-ask with feedback, bounded attempts, the accepted call with its history, or
//! a flagged give-up that carries every rejection. Never a guessed value.

mod gate_common;

use std::cell::RefCell;
use std::rc::Rc;

use gate_common::{gate, Call, GOOD, UNKNOWN_TOOL, WRONG_TYPE};
use serde_json::json;
use toolgate::gate::{AttemptVerdict, Gate, Message, Repair, Role, Stage};

/// How many messages the model was sent, each time it was asked.
type Seen = Rc<RefCell<Vec<usize>>>;

/// A scripted model: plays back `replies`, recording the number of messages it was sent each time.
fn scripted(replies: &[&str]) -> (impl FnMut(&[Message]) -> String, Seen) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&seen);
    let mut replies: Vec<String> = replies.iter().rev().map(|s| (*s).to_owned()).collect();
    let model = move |messages: &[Message]| {
        log.borrow_mut().push(messages.len());
        replies.pop().unwrap_or_else(|| "out of script".to_owned())
    };
    (model, seen)
}

#[test]
fn re_asks_with_feedback_until_accepted() {
    let (model, seen) = scripted(&[UNKNOWN_TOOL, WRONG_TYPE, GOOD]);
    let repair = gate().repair(vec![Message::system("rules"), Message::user("5 km in m?")], model);
    let lines: Vec<String> = repair.attempts().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "attempt 1: tool not allowed: delete_all_notes",
            "attempt 2: arguments: /value: expected number, found string \"five\"",
            "attempt 3: accepted",
        ]
    );
    // The model saw the conversation grow by its reply and the feedback each time.
    assert_eq!(*seen.borrow(), [2, 4, 6]);
    let Repair::Accepted { calls, attempts, messages } = repair else { panic!("not accepted") };
    assert_eq!(calls.len(), 1);
    let Call::ConvertUnits(args) = &calls[0].call else { panic!("variant") };
    assert_eq!(args.value, 5.0);
    assert_eq!(attempts[2].reply, GOOD);
    assert_eq!(attempts[0].rejections()[0].stage(), Stage::NotAllowed);
    assert!(matches!(attempts[2].verdict, AttemptVerdict::Accepted));
    let roles: Vec<Role> = messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::System, Role::User, Role::Assistant, Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    assert_eq!(messages[2].content, UNKNOWN_TOOL);
    assert_eq!(messages[3].content, attempts[0].rejections()[0].feedback());
    assert!(messages[5].content.contains("- at /value: expected number, found string \"five\""));
    assert!(messages[5].content.ends_with("with no other members and no other text."));
    assert_eq!(messages[6].content, GOOD);
}

#[test]
fn gives_up_after_the_limit_with_every_rejection() {
    let (model, seen) = scripted(&[UNKNOWN_TOOL, WRONG_TYPE, "not json", GOOD]);
    let repair = gate().repair(vec![Message::user("go")], model);
    assert!(repair.gave_up());
    assert!(repair.calls().is_none());
    assert_eq!(seen.borrow().len(), 3, "asked exactly max_attempts times");
    let stages: Vec<Stage> = repair.rejections().iter().map(|r| r.stage()).collect();
    assert_eq!(stages, [Stage::NotAllowed, Stage::Arguments, Stage::NotJson]);
    let Repair::GaveUp { attempts, messages } = &repair else { panic!("not a give-up") };
    assert_eq!(attempts.len(), 3);
    // The conversation ends with the last feedback.
    assert_eq!(messages.len(), 1 + 2 * 3);
    assert_eq!(messages.last().map(|m| m.role), Some(Role::User));
    assert!(messages.last().is_some_and(|m| m.content.contains("not valid JSON")));
}

#[test]
fn attempt_limit_is_configurable() {
    let (model, seen) = scripted(&[WRONG_TYPE; 10]);
    let repair = gate().max_attempts(5).repair(vec![], model);
    assert!(repair.gave_up());
    assert_eq!(seen.borrow().len(), 5);
    assert_eq!(repair.attempts().len(), 5);
    assert_eq!(repair.attempts()[4].number, 5);

    let (model, seen) = scripted(&[WRONG_TYPE, GOOD]);
    let repair = gate().max_attempts(1).repair(vec![], model);
    assert!(repair.gave_up());
    assert_eq!(seen.borrow().len(), 1);
}

#[test]
fn first_reply_accepted_asks_once() {
    let (model, seen) = scripted(&[GOOD, GOOD]);
    let repair = gate().repair(vec![Message::user("go")], model);
    assert_eq!(seen.borrow().len(), 1);
    assert_eq!(repair.attempts().len(), 1);
    assert_eq!(repair.calls().map(<[_]>::len), Some(1));
    assert!(repair.rejections().is_empty());
}

#[test]
fn a_rule_refusal_is_re_asked_too() {
    let bad = r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "m", "to_unit": "kg"}}"#;
    let (model, _) = scripted(&[bad, GOOD]);
    let repair = gate().repair(vec![], model);
    assert_eq!(repair.attempts()[0].to_string(), "attempt 1: rule: cannot convert m to kg");
    assert!(repair.messages()[1].content.contains("was refused: cannot convert m to kg."));
    assert!(matches!(repair, Repair::Accepted { .. }));
}

#[test]
fn prose_is_returned_as_prose() {
    let prose = json!({"role": "assistant", "content": "I'd rather chat."}).to_string();
    let (model, seen) = scripted(&[&prose, GOOD]);
    let repair = Gate::<Call>::openai().repair(vec![Message::user("hi")], model);
    assert_eq!(seen.borrow().len(), 1);
    let Repair::Prose { text, attempts, messages } = repair else { panic!("not prose") };
    assert_eq!(text, "I'd rather chat.");
    assert_eq!(attempts[0].to_string(), "attempt 1: prose");
    assert_eq!(messages.len(), 2);
}

#[test]
fn several_calls_must_all_pass() {
    let call = |id: &str, args: &str| json!({"id": id, "type": "function", "function": {"name": "convert_units", "arguments": args}});
    let good = r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#;
    let first =
        json!({"role": "assistant", "tool_calls": [call("a", good), call("b", r#"{"value": "x"}"#)]}).to_string();
    let second = json!({"role": "assistant", "tool_calls": [call("c", good), call("d", good)]}).to_string();
    let (model, _) = scripted(&[&first, &second]);
    let repair = Gate::<Call>::openai().repair(vec![], model);
    let attempt = &repair.attempts()[0];
    assert_eq!(attempt.rejections().len(), 1);
    assert_eq!(attempt.rejections()[0].call_index(), Some(1));
    assert!(repair.messages()[1]
        .content
        .starts_with("Your reply was rejected: tool call 1: the arguments of convert_units"));
    let calls = repair.calls().expect("accepted");
    let ids: Vec<Option<&str>> = calls.iter().map(|c| c.id.as_deref()).collect();
    assert_eq!(ids, [Some("c"), Some("d")]);
}

#[test]
fn combined_feedback_lists_every_rejected_call() {
    let call =
        |id: &str, name: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}});
    let reply = json!({"role": "assistant", "tool_calls": [call("a", "nope"), call("b", "lookup_stock")]}).to_string();
    let (model, _) = scripted(&[&reply]);
    let repair = Gate::<Call>::openai().max_attempts(1).repair(vec![], model);
    assert_eq!(
        repair.attempts()[0].to_string(),
        "attempt 1: call 0: tool not allowed: nope; call 1: arguments: /ticker: required property is missing"
    );
    let feedback = &repair.messages()[1].content;
    assert_eq!(
        feedback,
        "Your reply was rejected: tool call 0: there is no tool named \"nope\". The available tools are: convert_units, lookup_stock.\n\
         Your reply was rejected: tool call 1: the arguments of lookup_stock do not match its schema:\n\
         - at /ticker: required property is missing\n\
         Reply with one corrected tool call only, and no other text."
    );
    assert_eq!(feedback, &toolgate::gate::feedback(repair.attempts()[0].rejections()));
    assert_eq!(toolgate::gate::feedback(&[]), "");
}

#[test]
fn client_errors_interrupt_the_loop() {
    let mut n = 0;
    let result = gate().try_repair(vec![Message::user("go")], |_| {
        n += 1;
        if n == 1 {
            Ok(WRONG_TYPE.to_owned())
        } else {
            Err("HTTP 503")
        }
    });
    let interrupted = result.expect_err("interrupted");
    assert_eq!(interrupted.error, "HTTP 503");
    assert_eq!(interrupted.attempts.len(), 1);
    assert_eq!(interrupted.messages.len(), 3);
    assert_eq!(interrupted.to_string(), "model client failed after 1 attempt(s): HTTP 503");

    let ok = gate().try_repair(vec![], |_| Ok::<_, String>(GOOD.to_owned())).expect("no error");
    assert!(matches!(ok, Repair::Accepted { .. }));
}

#[test]
fn messages_render_as_chat_json() {
    assert_eq!(Message::user("hi").to_json(), json!({"role": "user", "content": "hi"}));
    assert_eq!(Message::assistant("x").to_json(), json!({"role": "assistant", "content": "x"}));
    assert_eq!(Message::system("s").role.as_str(), "system");
}

/// A minimal executor: polls `fut` until it is ready (the futures below wake nobody; they only ask
/// to be polled again). The async loop needs no runtime of its own.
fn block_on<F: std::future::Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// A future that is pending once before it gives `value`, as a network call is; counts its polls.
struct Later<T> {
    value: Option<T>,
    polled: Rc<RefCell<usize>>,
}

impl<T: Unpin> std::future::Future for Later<T> {
    type Output = T;
    fn poll(mut self: std::pin::Pin<&mut Self>, _cx: &mut std::task::Context<'_>) -> std::task::Poll<T> {
        *self.polled.borrow_mut() += 1;
        if *self.polled.borrow() % 2 == 1 {
            return std::task::Poll::Pending;
        }
        match self.value.take() {
            Some(v) => std::task::Poll::Ready(v),
            None => std::task::Poll::Pending,
        }
    }
}

#[test]
fn async_loop_is_the_sync_loop() {
    let script = [UNKNOWN_TOOL, WRONG_TYPE, GOOD];
    let start = vec![Message::system("rules"), Message::user("5 km in m?")];
    let (model, seen) = scripted(&script);
    let sync = gate().repair(start.clone(), model);

    let polled = Rc::new(RefCell::new(0));
    let mut replies = script.iter().map(|s| (*s).to_owned());
    let asked = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&asked);
    let counter = Rc::clone(&polled);
    let ask = async move |messages: &[Message]| {
        log.borrow_mut().push(messages.len());
        Later { value: replies.next(), polled: Rc::clone(&counter) }.await
    };
    let repaired = block_on(gate().repair_async(start, ask));
    assert_eq!(repaired, sync);
    assert_eq!(*asked.borrow(), *seen.borrow());
    // Each reply was pending once before it came.
    assert_eq!(*polled.borrow(), 6);
    let lines: Vec<String> = repaired.attempts().iter().map(ToString::to_string).collect();
    assert_eq!(lines[2], "attempt 3: accepted");
}

#[test]
fn async_loop_gives_up_and_stops_on_client_errors() {
    let gave_up = block_on(gate().max_attempts(2).repair_async(vec![], async |_: &[Message]| WRONG_TYPE.to_owned()));
    assert!(gave_up.gave_up());
    assert_eq!(gave_up.rejections().len(), 2);

    let mut n = 0;
    let result = block_on(gate().try_repair_async(vec![Message::user("go")], async |_: &[Message]| {
        n += 1;
        if n == 1 {
            Ok(WRONG_TYPE.to_owned())
        } else {
            Err("HTTP 503")
        }
    }));
    let interrupted = result.expect_err("interrupted");
    assert_eq!(interrupted.error, "HTTP 503");
    assert_eq!(interrupted.attempts.len(), 1);
    assert_eq!(interrupted.messages.len(), 3);

    let ok = block_on(gate().try_repair_async(vec![], async |_: &[Message]| Ok::<_, String>(GOOD.to_owned())));
    assert!(matches!(ok, Ok(Repair::Accepted { .. })));
}
