//! # qoslab-wasm
//!
//! The browser's door to the engine: one exported class, [`Simulation`], that runs a
//! scenario in chunks so a Web Worker can report progress and stop between chunks, and
//! [`validate_scenario`]. Everything crosses as JSON text whose TypeScript types are
//! generated from the Rust types. Errors are thrown as structured objects
//! (`EngineError`: `{kind: "syntax" | "invalid" | "internal", ...}`), never as panics;
//! a panic hook records any bug's message so the worker can report it.

use std::cell::RefCell;

use qoslab_core::{EngineError, Run, RunOptions};
use wasm_bindgen::prelude::*;

mod answer;
mod design;

use answer::{json, to_js, to_js_error};

pub use design::{
    design_export, design_opensm, design_table, evaluate_table, opafm_import, opensm_parse,
};

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
    to_js(qoslab_core::scenario::parse(scenario_json).map(|s| s.to_json_pretty()))
}

/// The work a run of the scenario is expected to do (`WorkEstimate` JSON: packets, on/off
/// period changes, and the limit validation holds them against), shown before a run;
/// throws an `EngineError` object when the scenario is refused.
#[wasm_bindgen]
pub fn scenario_work_estimate(scenario_json: &str) -> Result<String, JsValue> {
    to_js(
        qoslab_core::scenario::parse(scenario_json)
            .and_then(|scenario| json(&qoslab_core::scenario::work_estimate(&scenario))),
    )
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
    to_js(
        qoslab_core::scenario::parse(scenario_json)
            .and_then(|scenario| qoslab_core::sweep::at_load(&scenario, total_load))
            .map(|s| s.to_json_pretty()),
    )
}

/// The scenario at `value` along the sweep axis named `axis` (`load`: as
/// [`scenario_at_load`]; `streams`, `packet_bytes`: a network processor's stream count or
/// packet size at the same utilisation, see `sweep::at_point`, as `qoslab sweep --axis`),
/// as JSON; throws an `EngineError` object (an unknown axis, or one that does not apply to
/// the scenario's kind, at path `axis`).
#[wasm_bindgen]
pub fn scenario_at_point(scenario_json: &str, axis: &str, value: f64) -> Result<String, JsValue> {
    to_js(point_json(scenario_json, axis, value))
}

/// [`scenario_at_point`] without the JavaScript error (testable natively).
fn point_json(scenario_json: &str, axis: &str, value: f64) -> Result<String, EngineError> {
    let axis = qoslab_core::sweep::Axis::from_name(axis)?;
    let scenario = qoslab_core::scenario::parse(scenario_json)?;
    qoslab_core::sweep::at_point(&scenario, axis, value).map(|s| s.to_json_pretty())
}

/// Mean and 90% confidence half-width of independent replications' values, as the
/// engine's sweeps compute them (`sweep::ci90_half_width`: Student's t with n - 1 degrees
/// of freedom): `[mean, half_width]`, with NaN for what does not exist (the mean of no
/// value, the half-width of fewer than two). Non-finite values are left out.
#[wasm_bindgen]
pub fn mean_ci90(values: &[f64]) -> Vec<f64> {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let mean = if finite.is_empty() {
        f64::NAN
    } else {
        finite.iter().sum::<f64>() / finite.len() as f64
    };
    let half = qoslab_core::sweep::ci90_half_width(&finite).unwrap_or(f64::NAN);
    vec![mean, half]
}

/// Checks an uploaded video frame-size trace (the format of `traffic::frame_trace`,
/// documented in docs/traffic-formats.md) and summarises it: a `FrameTraceCheck` as JSON
/// (`summary` with the unscaled rate at one frame every `frame_interval_us`, or `error`
/// with the 1-based line, null for the whole text, and the rule broken). Never throws.
#[wasm_bindgen]
pub fn parse_frame_trace(text: &str, frame_interval_us: u32) -> String {
    let check = qoslab_core::traffic::frame_trace::FrameTraceCheck::of(text, frame_interval_us);
    // Plain numbers and strings: serialising cannot fail; the empty answer would be
    // reported by the web as an unreadable one.
    serde_json::to_string(&check).unwrap_or_default()
}

/// The first `decisions` scheduler decisions at or after `from_us` of a fresh run of the
/// scenario, as `Trace` JSON (a network processor: its dispatches explained, as `NpTrace`
/// JSON); throws an `EngineError` object.
#[wasm_bindgen]
pub fn trace_scenario(
    scenario_json: &str,
    decisions: u32,
    from_us: f64,
) -> Result<String, JsValue> {
    to_js(trace_json(scenario_json, decisions, from_us))
}

/// [`trace_scenario`] without the JavaScript error.
fn trace_json(scenario_json: &str, decisions: u32, from_us: f64) -> Result<String, EngineError> {
    let scenario = qoslab_core::scenario::parse(scenario_json)?;
    let from_us = if from_us.is_finite() && from_us > 0.0 {
        from_us as u64
    } else {
        0
    };
    if matches!(
        scenario.model,
        qoslab_core::scenario::Model::NetworkProcessor(_)
    ) {
        return qoslab_core::np::trace::trace(scenario, decisions, from_us)
            .map(|t| t.to_json_pretty());
    }
    qoslab_core::trace::trace(scenario, decisions, from_us).map(|t| t.to_json_pretty())
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
    to_js(qoslab_core::design::service_list(kind, &weights).and_then(|list| json(&list)))
}

/// The configuration a port's scheduler starts as when switched to another kind: a
/// `StartingRequest` JSON (`{kind, from, classes, rate_gbps}`) in, the `SchedulerConfig`
/// JSON out, built by the engine's own apportionment and WF2Q interleaving. Throws an
/// `EngineError` object naming the field (`kind`, `classes`, `from.table[2].class`).
#[wasm_bindgen]
pub fn starting_scheduler(request_json: &str) -> Result<String, JsValue> {
    to_js(qoslab_core::starting_scheduler::starting_scheduler(request_json).and_then(|c| json(&c)))
}

/// The per-class weights and shares of a port's scheduler, for the share table under it:
/// a `WeightsRequest` JSON (`{scheduler, classes}`) in, the `SchedulerWeights` JSON out
/// (`{weights, shares}`, both null for kinds without weights), from the engine's own
/// `carries` (an AS basic table's bounded Pareto means among them). Throws an
/// `EngineError` object naming the field (`classes`, `scheduler.table[1]`,
/// `classes[2].traffic.size.shape`).
#[wasm_bindgen]
pub fn scheduler_weights(request_json: &str) -> Result<String, JsValue> {
    to_js(qoslab_core::scheduler_weights::scheduler_weights(request_json).and_then(|w| json(&w)))
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
        // Unaudited: the browser shows results, not the audit (`RunOptions::audit`).
        Run::from_json_with(scenario_json, RunOptions::UNAUDITED)
            .map(|run| Simulation { run })
            .map_err(|e| to_js_error(&e))
    }

    /// Processes up to `max_events` events; returns true when the run is complete. Throws
    /// an `EngineError` of kind `budget` when the run goes over its run-time budget.
    pub fn advance(&mut self, max_events: u32) -> Result<bool, JsValue> {
        let done = self.run.advance(u64::from(max_events));
        match self.run.stopped() {
            Some(e) => Err(to_js_error(e)),
            None => Ok(done),
        }
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

#[cfg(test)]
mod tests {
    use super::design::{design_json, evaluation_json, opensm_json, opensm_lines};
    use super::*;

    /// A valid trace is summarised; a bad line is refused with its number and rule.
    #[test]
    fn parse_frame_trace_summarises_or_names_the_line() {
        let ok: serde_json::Value = serde_json::from_str(&parse_frame_trace(
            "# synthetic\n1000\n3000 # I\n\n2000\n",
            40_000,
        ))
        .unwrap();
        let ok = &ok["summary"];
        assert_eq!(ok["frames"], 3);
        assert_eq!(ok["total_bytes"], 6000);
        assert_eq!(ok["mean_bytes"], 2000.0);
        assert_eq!(ok["min_bytes"], 1000);
        assert_eq!(ok["max_bytes"], 3000);
        // 2000 B every 40 ms = 400 kb/s.
        assert_eq!(ok["mean_rate_bps"], 400_000);
        let bad: serde_json::Value =
            serde_json::from_str(&parse_frame_trace("100\n\n12x\n", 40_000)).unwrap();
        assert!(bad["summary"].is_null());
        let bad = &bad["error"];
        assert_eq!(bad["line"], 3);
        assert!(
            bad["message"]
                .as_str()
                .unwrap()
                .contains("\"12x\" is not a frame size")
        );
        let empty: serde_json::Value =
            serde_json::from_str(&parse_frame_trace("# nothing\n", 40_000)).unwrap();
        assert!(empty["summary"].is_null());
        assert!(empty["error"]["line"].is_null());
    }

    /// The worked example of `sweep::ci90_half_width`: 1, 2, 3 have mean 2 and half-width
    /// t(0.95, 2) / sqrt(3); missing values are NaN, non-finite inputs are left out.
    #[test]
    fn mean_ci90_matches_the_sweep_statistics() {
        let out = mean_ci90(&[1.0, 2.0, 3.0]);
        assert_eq!(out.len(), 2);
        assert!((out[0] - 2.0).abs() < 1e-12);
        assert!((out[1] - 2.920 / 3.0f64.sqrt()).abs() < 1e-12);
        let one = mean_ci90(&[5.0, f64::NAN]);
        assert_eq!(one[0], 5.0);
        assert!(one[1].is_nan());
        assert!(mean_ci90(&[]).iter().all(|v| v.is_nan()));
        assert_eq!(mean_ci90(&[4.0, 4.0, f64::INFINITY]), vec![4.0, 0.0]);
    }

    const VECTOR: &str = r#"{"technology":"infiniband","entries":64,"gmtu_bytes":2048,"w":2,"k":0.5,
      "classes":[{"name":"NC","distance":2,"mtu_bytes":192,"share":0.09375},
                 {"name":"VO","distance":4,"mtu_bytes":192,"share":0.046875},
                 {"name":"VI","distance":8,"mtu_bytes":2048,"share":0.5},
                 {"name":"CL","distance":16,"mtu_bytes":2048,"share":0.203125},
                 {"name":"EE","distance":32,"mtu_bytes":1024,"share":0.09375},
                 {"name":"BE","distance":64,"mtu_bytes":1024,"share":0.046875},
                 {"name":"BK","distance":64,"mtu_bytes":1024,"share":0.015625}]}"#;

    #[test]
    fn design_export_and_import_round_trip() {
        let design = design_json(VECTOR).expect("designs");
        let d: serde_json::Value = serde_json::from_str(&design).expect("json");
        assert_eq!(d["pool"], 1024);
        let lines = opensm_lines(&design).expect("exports");
        assert!(lines.contains("qos_vlarb_low 0:3,1:3,0:3,2:64"), "{lines}");
        let parsed: serde_json::Value =
            serde_json::from_str(&opensm_json(&lines).expect("parses")).expect("json");
        let low = parsed["prefixes"][0]["vlarb_low"].as_array().expect("low");
        assert_eq!(low.len(), 64);
        for (e, entry) in d["table"].as_array().expect("table").iter().zip(low) {
            let names = ["NC", "VO", "VI", "CL", "EE", "BE", "BK"];
            let vl = entry[0].as_u64().expect("vl") as usize;
            assert_eq!(e["class"], names[vl]);
            assert_eq!(e["weight"], entry[1]);
        }
        assert_eq!(parsed["lints"].as_array().map(Vec::len), Some(0));
    }

    #[test]
    fn evaluation_reports_the_design_and_an_edit() {
        let design: serde_json::Value =
            serde_json::from_str(&design_json(VECTOR).expect("designs")).expect("json");
        let table = design["table"].to_string();
        let e: serde_json::Value =
            serde_json::from_str(&evaluation_json(VECTOR, &table).expect("evaluates"))
                .expect("json");
        assert_eq!(e["pool"], 1024);
        assert_eq!(e["violations"].as_array().map(Vec::len), Some(0));
        assert_eq!(e["classes"][2]["total_weight"], 512);
        // Entry 0 (NC) to VO: NC's distance 2 breaks.
        let mut edited = design["table"].clone();
        edited[0]["class"] = "VO".into();
        let e: serde_json::Value =
            serde_json::from_str(&evaluation_json(VECTOR, &edited.to_string()).expect("evaluates"))
                .expect("json");
        let rules: Vec<&str> = e["violations"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|v| v["rule"].as_str())
            .collect();
        assert!(rules.contains(&"distance"), "{rules:?}");
        assert!(matches!(
            evaluation_json(VECTOR, "[{\"class\": 3}]"),
            Err(EngineError::Invalid { .. })
        ));
    }

    /// A sweep point along a named axis: the R5 preset's streams set exactly; an unknown
    /// axis, or one that does not apply to a link lab, refused at path `axis`.
    #[test]
    fn scenario_at_point_applies_the_named_axis() {
        let r5 = include_str!("../../../public/presets/r5-accesses-hilq.json");
        let s: serde_json::Value =
            serde_json::from_str(&point_json(r5, "streams", 300.0).expect("applies"))
                .expect("json");
        assert_eq!(s["model"]["streams"][0]["count"], 300);
        let s: serde_json::Value =
            serde_json::from_str(&point_json(r5, "packet_bytes", 128.0).expect("applies"))
                .expect("json");
        assert_eq!(s["model"]["streams"][0]["size"]["bytes"], 128);
        let path = |r: Result<String, EngineError>| match r {
            Err(EngineError::Invalid { errors }) => {
                (errors[0].path.clone(), errors[0].message.clone())
            }
            other => panic!("expected invalid, got {other:?}"),
        };
        let (p, m) = path(point_json(r5, "size", 128.0));
        assert_eq!(p, "axis");
        assert!(m.contains("load, streams, packet_bytes"), "{m}");
        let lab = include_str!("../../../public/presets/default.json");
        let (p, m) = path(point_json(lab, "streams", 100.0));
        assert_eq!(p, "axis");
        assert!(m.contains("only network-processor scenarios"), "{m}");
        assert_eq!(path(point_json(r5, "streams", 10.5)).0, "streams");
    }

    #[test]
    fn errors_name_the_field_or_line() {
        let bad = VECTOR.replace("\"distance\":2,", "\"distance\":0,");
        let Err(EngineError::Invalid { errors }) = design_json(&bad) else {
            panic!("expected invalid");
        };
        assert_eq!(errors[0].path, "classes[0].distance");
        let Err(EngineError::Invalid { errors }) = opensm_json("qos_vlarb_low 0:3,16:4\n") else {
            panic!("expected invalid");
        };
        assert_eq!(errors[0].path, "line 1 (qos_vlarb_low), entry 2");
        let dtable = design_json(&VECTOR.replace("infiniband", "dtable")).expect("designs");
        assert!(matches!(
            opensm_lines(&dtable),
            Err(EngineError::Invalid { .. })
        ));
        assert!(matches!(
            opensm_lines("{}"),
            Err(EngineError::Invalid { .. })
        ));
    }
}
