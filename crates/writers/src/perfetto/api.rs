//! API calls in the Perfetto trace, as rocprofv3 draws them (`rocprofv3-outputs.md` section 4):
//! one slice per call on its host thread's track (under the process), named after the function
//! (for ROCTx ranges and marks, their message), with the category of its library (`hsa_api`,
//! `hip_api`, `marker_api`, ...) and rocprofv3's annotations (`begin_ns`, `end_ns`, `delta_ns`,
//! `tid`, `kind`, `operation`, `corr_id`, `ancestor_id`), followed by the call's arguments where
//! the record carries them (`name: value`, as rocprofv3 does for rocDecode; we do it for every
//! library whose parameters the model describes). A ROCTx mark (`roctxMarkA`) is an instant.
//!
//! Every call carries the flow id of its correlation id, like the kernels and copies it launched,
//! so the trace processor links the call to them (a flow goes from one event to the next one that
//! carries the same id, in time order: call -> kernel).

use rocprof_model::api::{arg_info_named, render_arg, ApiDomain, ArgKind};
use rocprof_model::ApiCall;

use super::{Ann, State, Value};
use crate::{kinds, Result, Session};

/// rocprofv3's annotation names on API slices; an argument of the same name is written
/// `<name>_arg` so that no slice carries a key twice.
const API_ANNOTATIONS: [&str; 8] =
    ["begin_ns", "end_ns", "delta_ns", "tid", "kind", "operation", "corr_id", "ancestor_id"];

/// The Perfetto category of a domain's calls.
pub(super) fn category(domain: ApiDomain) -> &'static str {
    use rocprof_model::api::ApiFamily;
    match domain.family() {
        ApiFamily::Hsa => "hsa_api",
        ApiFamily::Hip => "hip_api",
        ApiFamily::Marker => "marker_api",
        ApiFamily::Rccl => "rccl_api",
        ApiFamily::RocDecode => "rocdecode_api",
        ApiFamily::RocJpeg => "rocjpeg_api",
    }
}

/// rocprofiler-sdk's buffer-tracing kind of a domain (the `kind` annotation).
fn kind(domain: ApiDomain) -> u64 {
    kinds::BUFFER_TRACING_KINDS.iter().position(|k| *k == domain.as_str()).unwrap_or(0) as u64
}

/// True for the records drawn as instants: ROCTx marks.
fn is_instant(a: &ApiCall) -> bool {
    a.domain == ApiDomain::MarkerCore && a.domain.operation_name(a.operation) == Some("roctxMarkA")
}

impl State {
    /// One API call: its slice (or instant) on its thread's track.
    pub(super) fn api_call(&mut self, session: &Session<'_>, a: &ApiCall) -> Result<()> {
        if self.process.is_none() {
            return Ok(());
        }
        let track = self.thread_track(a.thread)?;
        let name_iid = self.name_iid_of(session, a.display_name());
        if let Some(p) = self.process.as_mut() {
            p.end_ns = p.end_ns.max(a.end.ns);
        }
        let function = session.strings.resolve(a.name);
        if let Some(params) = arg_info_named(a.domain, a.operation, function) {
            for (p, &word) in params.iter().zip(a.args.iter()) {
                let v = match p.kind {
                    ArgKind::Unsigned => Value::Uint(word),
                    ArgKind::Signed => Value::Int(word as i64),
                    ArgKind::Bool => Value::Bool(word != 0),
                    ArgKind::Pointer => Value::Pointer(word),
                    ArgKind::Float32 => Value::Double(f64::from(f32::from_bits(word as u32))),
                    ArgKind::Float64 => Value::Double(f64::from_bits(word)),
                    ArgKind::Handle | ArgKind::Struct | ArgKind::Dim3 => {
                        let text = render_arg(p.kind, word);
                        self.argument(p.name, Value::Str(&text));
                        continue;
                    }
                };
                self.argument(p.name, v);
            }
        }
        let flow = self.flow(a.correlation.internal.0);
        let args = [
            (Ann::BeginNs, Value::Uint(a.start.ns)),
            (Ann::EndNs, Value::Uint(a.end.ns)),
            (Ann::DeltaNs, Value::Uint(a.duration_ns())),
            (Ann::Tid, Value::Uint(u64::from(a.thread.0))),
            (Ann::Kind, Value::Uint(kind(a.domain))),
            (Ann::Operation, Value::Uint(u64::from(a.operation))),
            (Ann::CorrId, Value::Uint(a.correlation.internal.0)),
            (Ann::AncestorId, Value::Uint(a.correlation.ancestor.0)),
        ];
        let end = (!is_instant(a)).then_some(a.end.ns.max(a.start.ns));
        self.slice(track, category(a.domain), name_iid, a.start.ns, end, flow, &args, &[])
    }

    /// One argument annotation of the next API slice.
    fn argument(&mut self, name: &str, v: Value<'_>) {
        if API_ANNOTATIONS.contains(&name) {
            self.extra_annotation(&format!("{name}_arg"), v);
        } else {
            self.extra_annotation(name, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_categories_follow_rocprofiler_sdk() {
        assert_eq!(kind(ApiDomain::HsaCore), 1);
        assert_eq!(kind(ApiDomain::HsaAmdExt), 2);
        assert_eq!(kind(ApiDomain::MarkerCore), 7);
        assert_eq!(kind(ApiDomain::HipRuntime), 21);
        assert_eq!(kind(ApiDomain::HipCompiler), 22);
        assert_eq!(kind(ApiDomain::Rccl), 14);
        assert_eq!(kind(ApiDomain::RocJpeg), 19);
        assert_eq!(kind(ApiDomain::RocDecode), 23);
        for d in ApiDomain::ALL {
            assert_ne!(kind(d), 0, "{d}");
            assert!(super::super::CATEGORIES.contains(&category(d)), "{d}");
        }
    }
}
