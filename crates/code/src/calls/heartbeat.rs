//! How often a visibility change is made (SQS210): the period of the
//! timer or loop that calls `ChangeMessageVisibility` again and again to
//! keep a message hidden while it is worked on.
//!
//! A period is read from what repeats the call:
//! - a loop around it, in its own function, whose body waits once: Python
//!   `time.sleep(P)` / `asyncio.sleep(P)` / `event.wait(P)`, JavaScript
//!   `await sleep(ms)`-style waits built on `setTimeout(resolve, ms)`, Go
//!   `time.Sleep(d)`, Java `Thread.sleep(ms)` / `TimeUnit.X.sleep(n)`; or
//!   a Go loop over a ticker (`for range ticker.C`, `case <-ticker.C:` in
//!   its `select`, `time.Tick(d)`);
//! - a timer that runs the function holding it: JavaScript
//!   `setInterval(fn, ms)` (the function written there, or named),
//!   a `setTimeout(fn, ms)` that re-arms it from inside, Python
//!   `threading.Timer(P, fn)`, Java `scheduleAtFixedRate(task, first,
//!   period, unit)` / `scheduleWithFixedDelay(...)`.
//!
//! One wait in the loop, one timer for the function: two waits, or a
//! period that cannot be followed, is unknown, never a guess.

use tree_sitter::Node;

use super::*;
use sqsguard_model::code::Heartbeat;

use crate::kinds::{FUNCTIONS, LOOPS};

impl<'a> Reader<'a> {
    /// The heartbeat a visibility change `call` is made on, when its
    /// period can be read.
    /// A loop or function that also receives is the worker's poll, not a
    /// heartbeat: a visibility change there releases or delays a message
    /// once (`VisibilityTimeout=0` on a failure), and its waits are the
    /// poll's.
    pub(super) fn heartbeat(&self, call: Node<'a>) -> Option<Heartbeat> {
        let mut at = call.parent();
        while let Some(n) = at {
            let repeats = LOOPS.contains(&n.kind());
            if (repeats || self.is_function(n)) && self.receives(n) {
                return None;
            }
            if repeats && let Some(beat) = self.loop_period(n) {
                return Some(beat);
            }
            if self.is_function(n) {
                return self.timer_period(n);
            }
            at = n.parent();
        }
        None
    }

    /// A function, but not the executor of a `new Promise(...)` (a wait
    /// written `await new Promise((r) => setTimeout(r, ms))`).
    fn is_function(&self, n: Node<'a>) -> bool {
        if !FUNCTIONS.contains(&n.kind()) {
            return false;
        }
        let promise = n.parent().and_then(|a| a.parent()).filter(|p| p.kind() == "new_expression");
        promise.and_then(|p| p.child_by_field_name("constructor")).is_none_or(|c| self.text_of(c) != "Promise")
    }

    /// Whether `n`'s code receives messages.
    fn receives(&self, n: Node<'a>) -> bool {
        let text = self.text_of(n).to_ascii_lowercase();
        text.contains("receivemessage") || text.contains("receive_message")
    }

    /// A loop's period: its one wait, or (Go) the ticker it ranges over.
    fn loop_period(&self, lp: Node<'a>) -> Option<Heartbeat> {
        if self.language == Language::Go
            && let Some(beat) = self.ticker_loop(lp)
        {
            return Some(beat);
        }
        let body = lp.child_by_field_name("body")?;
        let mut waits = Vec::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if self.is_function(n) {
                continue;
            }
            if let Some(wait) = self.wait(n) {
                waits.push(wait);
            }
            for i in 0..n.named_child_count() {
                stack.extend(n.named_child(i as u32));
            }
        }
        match waits.as_slice() {
            [one] => one.clone(),
            _ => None,
        }
    }

    /// A call that waits: `Some(None)` when its length cannot be read.
    #[allow(clippy::option_option)]
    fn wait(&self, n: Node<'a>) -> Option<Option<Heartbeat>> {
        if !matches!(n.kind(), "call" | "call_expression" | "method_invocation") {
            return None;
        }
        let callee = match n.kind() {
            "method_invocation" => {
                let name = n.child_by_field_name("name").map(|m| self.text_of(m)).unwrap_or_default();
                let object = n.child_by_field_name("object").map(|o| self.text_of(o)).unwrap_or_default();
                format!("{object}.{name}")
            }
            _ => n.child_by_field_name("function").map(|f| self.text_of(f).to_string()).unwrap_or_default(),
        };
        let args = n.child_by_field_name("arguments")?;
        let first = args.named_child(0);
        let last = callee.rsplit('.').next().unwrap_or_default();
        let seconds = match (self.language, last) {
            (Language::Python, "sleep") => first.and_then(|a| self.number(a, 0)),
            (Language::Python, "wait") if callee.contains('.') => first.and_then(|a| {
                let a = if a.kind() == "keyword_argument" { a.child_by_field_name("value")? } else { a };
                self.number(a, 0)
            }),
            (Language::Go, "Sleep") if callee == "time.Sleep" => {
                first.and_then(|a| self.go_duration(a, 0)).map(|ns| ns / 1e9)
            }
            (Language::Java, "sleep") if callee == "Thread.sleep" => {
                first.and_then(|a| self.number(a, 0)).map(|ms| ms / 1e3)
            }
            (Language::Java, "sleep") if callee.starts_with("TimeUnit.") => {
                let per = time_unit(callee.trim_start_matches("TimeUnit.").trim_end_matches(".sleep"))?;
                first.and_then(|a| self.number(a, 0)).map(|n| n * per)
            }
            // `new Promise((r) => setTimeout(r, ms))`, and a `sleep(ms)` or
            // `setTimeout(ms)` of timers/promises, awaited.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "setTimeout" | "sleep" | "delay")
                if self.awaited(n) =>
            {
                let ms =
                    if last == "setTimeout" && args.named_child_count() >= 2 { args.named_child(1) } else { first };
                ms.and_then(|a| self.number(a, 0)).map(|ms| ms / 1e3)
            }
            _ => return None,
        };
        Some(seconds.map(|s| Heartbeat { seconds: s, how: last.to_string(), origin: self.origin(unit::span(n)) }))
    }

    /// Whether a JavaScript wait is awaited: the call, or the promise it
    /// resolves, is under an `await`.
    fn awaited(&self, n: Node<'a>) -> bool {
        let mut at = n.parent();
        while let Some(p) = at {
            if p.kind() == "await_expression" {
                return true;
            }
            if self.is_function(p) {
                return false;
            }
            at = p.parent();
        }
        false
    }

    /// Go: `for range ticker.C`, `for range time.Tick(d)`, or a `for` whose
    /// `select` waits on `case <-ticker.C:`.
    fn ticker_loop(&self, lp: Node<'a>) -> Option<Heartbeat> {
        let mut cursor = lp.walk();
        let range = lp.named_children(&mut cursor).find(|c| c.kind() == "range_clause");
        let channel = if let Some(range) = range {
            self.text_of(range.child_by_field_name("right")?).to_string()
        } else {
            // The select's one case on a clock (`ctx.Done()` is none).
            let body = self.text_of(lp.child_by_field_name("body")?);
            let clocks: Vec<&str> = body
                .match_indices("case <-")
                .filter_map(|(i, _)| body[i + 7..].split(':').next())
                .map(str::trim)
                .filter(|c| c.ends_with(".C") || c.starts_with("time.Tick(") || c.starts_with("time.After("))
                .collect();
            let [clock] = clocks.as_slice() else { return None };
            clock.to_string()
        };
        let made_per_beat = channel.strip_prefix("time.After(").and_then(|c| c.strip_suffix(')'));
        if let Some(d) = channel.strip_prefix("time.Tick(").and_then(|c| c.strip_suffix(')')).or(made_per_beat) {
            let ns = self.go_duration_text(d, lp)?;
            return Some(Heartbeat { seconds: ns / 1e9, how: "time.Tick".into(), origin: self.origin(unit::span(lp)) });
        }
        let ticker = channel.strip_suffix(".C")?;
        let b = self.bound(ticker, lp.start_byte()).filter(|b| !b.destructure)?;
        let made = self.strip(b.value);
        let f = made.child_by_field_name("function").map(|f| self.text_of(f))?;
        if f != "time.NewTicker" {
            return None;
        }
        let d = made.child_by_field_name("arguments")?.named_child(0)?;
        let ns = self.go_duration(d, 0)?;
        Some(Heartbeat { seconds: ns / 1e9, how: "time.NewTicker".into(), origin: self.origin(unit::span(made)) })
    }

    /// A Go duration written as `text` inside `near` (the `time.Tick`
    /// argument of a loop's header).
    fn go_duration_text(&self, text: &str, near: Node<'a>) -> Option<f64> {
        let mut stack = vec![near];
        while let Some(n) = stack.pop() {
            if self.text_of(n) == text {
                return self.go_duration(n, 0);
            }
            if n.kind() == "block" {
                continue;
            }
            for i in 0..n.named_child_count() {
                stack.extend(n.named_child(i as u32));
            }
        }
        None
    }

    /// The period of the timer that runs the function `f`: the timer call
    /// it is written in, or one naming it.
    fn timer_period(&self, f: Node<'a>) -> Option<Heartbeat> {
        // Written as the timer's argument: `setInterval(() => ..., ms)`,
        // `scheduleAtFixedRate(() -> ..., 0, 10, TimeUnit.SECONDS)`.
        let parent = f.parent().filter(|p| matches!(p.kind(), "arguments" | "argument_list"));
        if let Some(args) = parent
            && let Some(timer) = args.parent()
        {
            return self.timer(timer, args, f);
        }
        // Named: a timer anywhere in the file that names it.
        let name = f.child_by_field_name("name").map(|n| self.text_of(n))?;
        let names = |args: Node<'a>| {
            (0..args.named_child_count()).any(|i| {
                args.named_child(i as u32).is_some_and(|a| {
                    let t = self.text_of(a);
                    t == name || t.rsplit('.').next() == Some(name)
                })
            })
        };
        let found: Vec<Heartbeat> = self
            .walked()
            .timers
            .iter()
            .filter(|(_, args)| names(*args))
            .filter_map(|(timer, args)| self.timer(*timer, *args, f))
            .collect();
        match found.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// The period of `timer` (a call whose arguments `args` hold the
    /// function run), when it is a repeating or re-armed timer.
    fn timer(&self, timer: Node<'a>, args: Node<'a>, f: Node<'a>) -> Option<Heartbeat> {
        let name = self.callee_last(timer);
        let arg = |i: u32| args.named_child(i);
        let seconds = match (self.language, name) {
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "setInterval") => {
                self.number(arg(1)?, 0)? / 1e3
            }
            // Re-armed: a `setTimeout` of the function inside itself.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "setTimeout")
                if f.start_byte() <= timer.start_byte() && timer.end_byte() <= f.end_byte() =>
            {
                self.number(arg(1)?, 0)? / 1e3
            }
            (Language::Python, "Timer") => self.number(arg(0)?, 0)?,
            (Language::Java, "scheduleAtFixedRate" | "scheduleWithFixedDelay") => {
                let unit = self.text_of(arg(3)?);
                self.number(arg(2)?, 0)? * time_unit(unit.trim_start_matches("TimeUnit."))?
            }
            _ => return None,
        };
        Some(Heartbeat { seconds, how: name.to_string(), origin: self.origin(unit::span(timer)) })
    }
}

/// Seconds in one of Java's `TimeUnit`s.
fn time_unit(unit: &str) -> Option<f64> {
    Some(match unit {
        "MILLISECONDS" => 1e-3,
        "SECONDS" => 1.0,
        "MINUTES" => 60.0,
        "HOURS" => 3600.0,
        _ => return None,
    })
}
