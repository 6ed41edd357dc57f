//! # qoslab-wasm
//!
//! The browser's door to the engine: one exported class, [`Simulation`], that runs a
//! scenario in chunks so a Web Worker can report progress and stop between chunks, and
//! [`validate_scenario`]. Everything crosses as JSON text whose TypeScript types are
//! generated from the Rust types. Errors are thrown as structured objects
//! (`EngineError`: `{kind: "syntax" | "invalid" | "internal", ...}`), never as panics;
//! a panic hook records any bug's message so the worker can report it.

use std::cell::RefCell;

use qoslab_core::{EngineError, Run};
use wasm_bindgen::prelude::*;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the panic hook (once per instance): the message is logged to the console and
/// kept for [`take_panic_message`].
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last panic, if the engine crashed (a bug: please report it).
/// After a panic the instance must be discarded.
#[wasm_bindgen]
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow_mut().take())
}

/// The engine's name and version, e.g. `qoslab-core 0.1.0`.
#[wasm_bindgen]
pub fn engine_version() -> String {
    concat!("qoslab-core ", env!("CARGO_PKG_VERSION")).to_string()
}

/// Checks a scenario. Returns `"null"` when it is valid, otherwise an `EngineError` as JSON
/// listing every problem.
#[wasm_bindgen]
pub fn validate_scenario(scenario_json: &str) -> String {
    match qoslab_core::scenario::parse(scenario_json) {
        Ok(_) => "null".to_string(),
        Err(e) => e.to_json(),
    }
}

/// Reads a scenario as a link or file would bring it: migrates older format versions and
/// validates it. Returns the canonical current-version scenario as JSON, or throws an
/// `EngineError` object naming every problem.
#[wasm_bindgen]
pub fn load_scenario(scenario_json: &str) -> Result<String, JsValue> {
    qoslab_core::scenario::parse(scenario_json)
        .map(|s| s.to_json_pretty())
        .map_err(|e| to_js_error(&e))
}

/// The JSON Schema of the scenario format.
#[wasm_bindgen]
pub fn scenario_schema() -> String {
    qoslab_core::Scenario::json_schema().to_string()
}

/// The scenario at total offered load `total_load` (a point of an offered-load sweep; link
/// lab: every class scaled in proportion; network: best-effort classes scaled, QoS classes
/// fixed, see `sweep::at_load`), as JSON; throws an `EngineError` object.
#[wasm_bindgen]
pub fn scenario_at_load(scenario_json: &str, total_load: f64) -> Result<String, JsValue> {
    let scenario = qoslab_core::scenario::parse(scenario_json).map_err(|e| to_js_error(&e))?;
    qoslab_core::sweep::at_load(&scenario, total_load)
        .map(|s| s.to_json_pretty())
        .map_err(|e| to_js_error(&e))
}

/// The first `decisions` scheduler decisions at or after `from_us` of a fresh run of the
/// scenario, as `Trace` JSON; throws an `EngineError` object.
#[wasm_bindgen]
pub fn trace_scenario(
    scenario_json: &str,
    decisions: u32,
    from_us: f64,
) -> Result<String, JsValue> {
    let scenario = qoslab_core::scenario::parse(scenario_json).map_err(|e| to_js_error(&e))?;
    let from_us = if from_us.is_finite() && from_us > 0.0 {
        from_us as u64
    } else {
        0
    };
    qoslab_core::trace::trace(scenario, decisions, from_us)
        .map(|t| t.to_json_pretty())
        .map_err(|e| to_js_error(&e))
}

/// A weighted round-robin service list: `kind` is `simple`, `uniform` or `wf2q`,
/// `weights_json` a JSON array of integer weights. Returns a JSON array of flow indices;
/// throws an `EngineError` object.
#[wasm_bindgen]
pub fn service_list(kind: &str, weights_json: &str) -> Result<String, JsValue> {
    let kind: qoslab_core::design::ServiceListKind =
        serde_json::from_value(serde_json::Value::String(kind.to_string())).map_err(|_| {
            to_js_error(&EngineError::invalid(
                "kind",
                format!("\"{kind}\" is not a service list; expected simple, uniform or wf2q"),
            ))
        })?;
    let weights: Vec<u32> = serde_json::from_str(weights_json).map_err(|e| {
        to_js_error(&EngineError::invalid(
            "weights",
            format!("must be a JSON array of integer weights 0 to 65535 ({e})"),
        ))
    })?;
    qoslab_core::design::service_list(kind, &weights)
        .map(|list| serde_json::to_string(&list).unwrap_or_default())
        .map_err(|e| to_js_error(&e))
}

fn to_js_error(e: &EngineError) -> JsValue {
    js_sys::JSON::parse(&e.to_json()).unwrap_or_else(|_| JsValue::from_str(&e.to_string()))
}

/// A scenario being simulated, advanced chunk by chunk.
#[wasm_bindgen]
pub struct Simulation {
    run: Run,
}

#[wasm_bindgen]
impl Simulation {
    /// Parses and validates the scenario; throws an `EngineError` object when it is invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Simulation, JsValue> {
        Run::from_json(scenario_json)
            .map(|run| Simulation { run })
            .map_err(|e| to_js_error(&e))
    }

    /// Processes up to `max_events` events; returns true when the run is complete.
    pub fn advance(&mut self, max_events: u32) -> bool {
        self.run.advance(u64::from(max_events))
    }

    /// Whether the run is complete.
    pub fn done(&self) -> bool {
        self.run.is_done()
    }

    /// Fraction of simulated time done, in [0, 1].
    pub fn progress(&self) -> f64 {
        self.run.progress()
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.run.events_processed() as f64
    }

    /// The results as pretty JSON (`RunResults`): byte-identical to `qoslab run`'s output.
    pub fn results_json(&self) -> String {
        self.run.results().to_json_pretty()
    }
}
