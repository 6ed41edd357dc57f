//! The table designer's and the fabric managers' calls: design, evaluate, export, and
//! read OpenSM and Omni-Path configurations (JSON in and out, errors as `EngineError`
//! objects).

use qoslab_core::EngineError;
use wasm_bindgen::prelude::*;

use crate::answer::{json, json_pretty, to_js};

/// Designs an arbitration table for a `Requirements` JSON document
/// (`docs/table-design.md`). Returns the `Design` as JSON; throws an `EngineError` object
/// naming every problem (field paths such as `classes[1].distance`).
#[wasm_bindgen]
pub fn design_table(requirements_json: &str) -> Result<String, JsValue> {
    to_js(design_json(requirements_json))
}

/// Evaluates a table (`[{"class", "weight"}]` JSON, entries naming classes of the
/// requirements) against a `Requirements` JSON document. Returns the `Evaluation` as JSON
/// (every broken rule is a violation in it); throws an `EngineError` object when the
/// requirements or the table JSON cannot be read.
#[wasm_bindgen]
pub fn evaluate_table(requirements_json: &str, table_json: &str) -> Result<String, JsValue> {
    to_js(evaluation_json(requirements_json, table_json))
}

/// The OpenSM `qos_*` lines (plain `qos_` prefix) of an InfiniBand `Design` given as JSON
/// (its `table` may have been edited); throws an `EngineError` object.
#[wasm_bindgen]
pub fn design_opensm(design_json: &str) -> Result<String, JsValue> {
    to_js(opensm_lines(design_json))
}

/// A `Design` given as JSON (its `table` may have been edited) as a fabric manager's
/// configuration: `format` is `opensm` (complete OpenSM QoS options, InfiniBand only),
/// `opafm` (complete `opafm.xml`), `opafm-fragment` (its QOSGroups and VirtualFabrics) or
/// `ets` (a Linux `tc qdisc ... ets` command); the same text as `qoslab design --format`.
/// Throws an `EngineError` object.
#[wasm_bindgen]
pub fn design_export(design_json: &str, format: &str) -> Result<String, JsValue> {
    to_js(export_text(design_json, format))
}

/// Reads an Omni-Path `opafm.xml` (or fragment) into requirements JSON, keeping the table
/// size, GMTU, w, k, link rate and the distance and MTU of same-named classes of
/// `requirements_json` (`docs/omnipath.md`). Throws an `EngineError` object whose paths
/// name the line and element.
#[wasm_bindgen]
pub fn opafm_import(text: &str, requirements_json: &str) -> Result<String, JsValue> {
    to_js(opafm_requirements(text, requirements_json))
}

/// Reads OpenSM `qos_*` option lines (`docs/opensm.md`). Returns JSON
/// `{"prefixes": [{"prefix", "max_vls", "high_limit", "vlarb_high", "vlarb_low", "sl2vl"}],
/// "lints": [{"kind", "path", "message"}]}` (vlarb lists as `[[vl, weight], ...]`, unset
/// options `null`); throws an `EngineError` object whose paths name the line and entry.
#[wasm_bindgen]
pub fn opensm_parse(text: &str) -> Result<String, JsValue> {
    to_js(opensm_json(text))
}

pub(crate) fn design_json(requirements_json: &str) -> Result<String, EngineError> {
    let r = qoslab_core::design::parse_requirements(requirements_json)?;
    Ok(qoslab_core::design::design(&r)?.to_json_pretty())
}

pub(crate) fn evaluation_json(
    requirements_json: &str,
    table_json: &str,
) -> Result<String, EngineError> {
    let r = qoslab_core::design::parse_requirements(requirements_json)?;
    let table: Vec<qoslab_core::design::DesignEntry> =
        serde_json::from_str(table_json).map_err(|e| {
            EngineError::invalid(
                "table",
                format!("must be a list of {{\"class\", \"weight\"}} entries ({e})"),
            )
        })?;
    let evaluation = qoslab_core::design::evaluate(&r, &table)?;
    json_pretty(&evaluation)
}

pub(crate) fn opensm_lines(design_json: &str) -> Result<String, EngineError> {
    use qoslab_core::design::opensm;
    let design: qoslab_core::design::Design = serde_json::from_str(design_json)
        .map_err(|e| EngineError::invalid("design", format!("is not a design: {e}")))?;
    opensm::export_file(&design)
}

pub(crate) fn export_text(design_json: &str, format: &str) -> Result<String, EngineError> {
    use qoslab_core::design::{ets, opafm};
    let design: qoslab_core::design::Design = serde_json::from_str(design_json)
        .map_err(|e| EngineError::invalid("design", format!("is not a design: {e}")))?;
    match format {
        "opensm" => qoslab_core::design::opensm::export_file(&design),
        "opafm" => opafm::export_complete(&design),
        "opafm-fragment" => opafm::export_fragment(&design),
        "ets" => ets::command(&design),
        other => Err(EngineError::invalid(
            "format",
            format!("must be opensm, opafm, opafm-fragment or ets (got {other})"),
        )),
    }
}

pub(crate) fn opafm_requirements(
    text: &str,
    requirements_json: &str,
) -> Result<String, EngineError> {
    use qoslab_core::design::opafm;
    let base = qoslab_core::design::parse_requirements(requirements_json)?;
    let groups = opafm::import(text)?;
    let r = opafm::requirements_from(&groups, &base)?;
    json_pretty(&r)
}

pub(crate) fn opensm_json(text: &str) -> Result<String, EngineError> {
    let (prefixes, lints) = qoslab_core::design::opensm::parse(text)?;
    let parsed = qoslab_core::design::opensm::OpenSmParsed { prefixes, lints };
    json(&parsed)
}
