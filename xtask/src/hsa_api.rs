//! `cargo xtask codegen-hsa-api [--check]`: generates, from the API-table definitions in
//! `rocprof-hsa-sys` (the one description of the HSA tables, pinned against AMD's headers
//! there), the two files that depend on them:
//!
//! * `crates/model/src/api/hsa/tables.rs`: per HSA domain (core, AMD extension, image,
//!   finalizer) the operations in rocprofiler-sdk's id order (the newest table's entry order)
//!   with every parameter's name, C type and print kind;
//! * `crates/intercept/src/hsa_api/tables.rs`: one `hsa_table!` invocation per table layout
//!   (the newest tables plus the ROCm 5.2 AMD extension table, whose entries are mapped to the
//!   newest ids by name), which expands to the generic tracing wrappers, and the `Arg` impls of
//!   the handle types passed by value.
//!
//! The reader understands exactly the shapes `rocprof-hsa-sys` uses (`pub struct X { pub f: T, }`
//! and `pub type X = T;` items, rustfmt-formatted); anything it cannot classify is an error
//! naming the item, never a silent skip.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

/// Generated operation tables, relative to the repository root.
pub(crate) const MODEL_OUT: &str = "crates/model/src/api/hsa/tables.rs";
/// Generated wrapper lists, relative to the repository root.
pub(crate) const INTERCEPT_OUT: &str = "crates/intercept/src/hsa_api/tables.rs";
/// The table definitions.
const API_TRACE: &str = "crates/hsa-sys/src/api_trace.rs";
/// Where the function-pointer and type aliases live.
const HSA_SYS_SRC: &str = "crates/hsa-sys/src";

/// The traced tables: (domain constant in the model, struct in the newest layout).
const DOMAINS: &[(&str, &str)] = &[
    ("CORE", "CoreApiTable"),
    ("AMD_EXT", "AmdExtTable"),
    ("IMAGE_EXT", "ImageExtTable"),
    ("FINALIZE_EXT", "FinalizerExtTable"),
];

/// Entry point of the `codegen-hsa-api` task.
pub(crate) fn codegen(rest: &[String]) -> Result<()> {
    let check = rest.iter().any(|a| a == "--check");
    let (model, intercept) = generate_from_sources()?;
    for (rel, text) in [(MODEL_OUT, &model), (INTERCEPT_OUT, &intercept)] {
        let path = crate::host::root().join(rel);
        if check {
            if fs::read_to_string(&path).unwrap_or_default() != *text {
                bail!("{rel} is stale; run `cargo xtask codegen-hsa-api` and commit the result");
            }
            println!("{rel} is up to date");
        } else {
            fs::create_dir_all(path.parent().expect("generated files live in a directory"))?;
            fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}

/// Both generated files, from the sources in the repository.
pub(crate) fn generate_from_sources() -> Result<(String, String)> {
    let root = crate::host::root();
    let api_trace = read(&root.join(API_TRACE))?;
    let mut all = String::new();
    let mut files: Vec<_> = fs::read_dir(root.join(HSA_SYS_SRC))
        .with_context(|| format!("listing {HSA_SYS_SRC}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    for f in files {
        all.push_str(&read(&f)?);
        all.push('\n');
    }
    generate(&api_trace, &all)
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

// ------------------------------------------------------------------------------------------------
// Types
// ------------------------------------------------------------------------------------------------

/// A Rust type as written in `rocprof-hsa-sys`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ty {
    /// `*const T` / `*mut T`.
    Ptr { mutable: bool, inner: Box<Ty> },
    /// `unsafe extern "C" fn(..) -> R`, possibly wrapped in `Option<..>`.
    Fn { params: Vec<(String, Ty)>, ret: Box<Ty> },
    /// A named type (last path segment).
    Named(String),
    /// `()` or a missing return type.
    Unit,
}

/// A tiny recursive-descent reader over one type's text.
struct TyReader<'a> {
    s: &'a str,
}

impl<'a> TyReader<'a> {
    fn skip_ws(&mut self) {
        self.s = self.s.trim_start();
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.skip_ws();
        if let Some(rest) = self.s.strip_prefix(tok) {
            self.s = rest;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &str) -> Result<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            bail!("expected `{tok}` at `{}`", self.s.chars().take(40).collect::<String>())
        }
    }

    fn ident(&mut self) -> Result<String> {
        self.skip_ws();
        let n = self.s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(self.s.len());
        if n == 0 {
            bail!("expected a name at `{}`", self.s.chars().take(40).collect::<String>());
        }
        let id = self.s[..n].to_string();
        self.s = &self.s[n..];
        Ok(id)
    }

    fn ty(&mut self) -> Result<Ty> {
        self.skip_ws();
        if self.eat("*const") {
            return Ok(Ty::Ptr { mutable: false, inner: Box::new(self.ty()?) });
        }
        if self.eat("*mut") {
            return Ok(Ty::Ptr { mutable: true, inner: Box::new(self.ty()?) });
        }
        if self.eat("Option<") {
            let inner = self.ty()?;
            self.eat(",");
            self.expect(">")?;
            // `Option<fn ..>` or `Option<alias of a fn type>`: a nullable function pointer, which
            // prints and records like the function pointer itself.
            return Ok(inner);
        }
        if self.eat("unsafe") {
            self.expect("extern")?;
            self.expect("\"C\"")?;
            self.expect("fn")?;
            self.expect("(")?;
            let params = self.params()?;
            let ret = if self.eat("->") { self.ty()? } else { Ty::Unit };
            return Ok(Ty::Fn { params, ret: Box::new(ret) });
        }
        if self.eat("()") {
            return Ok(Ty::Unit);
        }
        let mut name = self.ident()?;
        while self.s.starts_with("::") {
            self.s = &self.s[2..];
            name = self.ident()?;
        }
        Ok(Ty::Named(name))
    }

    /// Parameters after `(` up to and including `)`.
    fn params(&mut self) -> Result<Vec<(String, Ty)>> {
        let mut out = Vec::new();
        loop {
            if self.eat(")") {
                return Ok(out);
            }
            // `name: Type`, or a bare type.
            let save = self.s;
            let name = match self.ident() {
                Ok(id)
                    if {
                        self.skip_ws();
                        self.s.starts_with(':') && !self.s.starts_with("::")
                    } =>
                {
                    self.s = &self.s[1..];
                    id
                }
                _ => {
                    self.s = save;
                    format!("arg{}", out.len())
                }
            };
            out.push((name, self.ty()?));
            if !self.eat(",") {
                self.expect(")")?;
                return Ok(out);
            }
        }
    }
}

fn parse_ty(text: &str) -> Result<Ty> {
    let mut r = TyReader { s: text };
    let t = r.ty().with_context(|| format!("reading type `{text}`"))?;
    r.skip_ws();
    if !r.s.is_empty() {
        bail!("trailing text `{}` after type `{text}`", r.s);
    }
    Ok(t)
}

/// How the model prints an argument (the names of `rocprof_model::api::ArgKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Unsigned,
    Signed,
    Bool,
    Pointer,
    Handle,
    Struct,
}

/// The declarations of `rocprof-hsa-sys` the generator needs.
struct Decls {
    /// `pub type NAME = TYPE;`
    aliases: HashMap<String, Ty>,
    /// Structs whose only field is `pub handle: u64`.
    handles: BTreeSet<String>,
    /// Every other struct name (passing one by value is not supported).
    structs: BTreeSet<String>,
}

impl Decls {
    fn read(all: &str) -> Result<Self> {
        let mut aliases = HashMap::new();
        for (name, rhs) in items(all, "pub type ") {
            aliases.insert(name.clone(), parse_ty(&rhs).with_context(|| format!("alias {name}"))?);
        }
        let mut handles = BTreeSet::new();
        let mut structs = BTreeSet::new();
        let mut rest = all;
        while let Some(at) = rest.find("pub struct ") {
            rest = &rest[at + "pub struct ".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let fields = body(rest).map(fields).unwrap_or_default();
            if fields.len() == 1 && fields[0].0 == "handle" && fields[0].1 == "u64" {
                handles.insert(name);
            } else {
                structs.insert(name);
            }
        }
        Ok(Self { aliases, handles, structs })
    }

    /// The print kind of a parameter type.
    fn kind(&self, t: &Ty) -> Result<Kind> {
        Ok(match t {
            Ty::Ptr { .. } | Ty::Fn { .. } => Kind::Pointer,
            Ty::Unit => bail!("a parameter of type ()"),
            Ty::Named(n) => match n.as_str() {
                "bool" => Kind::Bool,
                "u8" | "u16" | "u32" | "u64" | "usize" | "c_uint" | "c_ulong" | "c_uchar" | "c_ushort" => {
                    Kind::Unsigned
                }
                "i8" | "i16" | "i32" | "i64" | "isize" | "c_int" | "c_long" | "c_char" | "c_short" => Kind::Signed,
                _ if self.handles.contains(n) => Kind::Handle,
                _ => match self.aliases.get(n) {
                    Some(t) => self.kind(t).with_context(|| format!("type {n}"))?,
                    None if self.structs.contains(n) => Kind::Struct,
                    None => bail!("unknown type {n}"),
                },
            },
        })
    }

    /// The struct behind a by-value parameter type, if it is one: (name, is a handle).
    fn by_value_struct(&self, t: &Ty) -> Option<(String, bool)> {
        match t {
            Ty::Named(n) if self.handles.contains(n) => Some((n.clone(), true)),
            Ty::Named(n) if self.structs.contains(n) => Some((n.clone(), false)),
            Ty::Named(n) => self.aliases.get(n).and_then(|t| self.by_value_struct(t)),
            _ => None,
        }
    }
}

/// The C spelling of a type (for `rocpd_arg.type`).
fn c_type(t: &Ty) -> String {
    match t {
        Ty::Ptr { mutable, inner } => match **inner {
            Ty::Ptr { .. } | Ty::Fn { .. } => format!("{}*", c_type(inner)),
            _ if !mutable => format!("const {}*", c_type(inner)),
            _ => format!("{}*", c_type(inner)),
        },
        Ty::Fn { params, ret } => {
            let ps: Vec<String> = params.iter().map(|(_, t)| c_type(t)).collect();
            format!("{} (*)({})", c_type(ret), ps.join(", "))
        }
        Ty::Unit => "void".into(),
        Ty::Named(n) => match n.as_str() {
            "u8" => "uint8_t".into(),
            "u16" => "uint16_t".into(),
            "u32" => "uint32_t".into(),
            "u64" => "uint64_t".into(),
            "usize" => "size_t".into(),
            "i8" => "int8_t".into(),
            "i16" => "int16_t".into(),
            "i32" => "int32_t".into(),
            "i64" => "int64_t".into(),
            "isize" => "ssize_t".into(),
            "c_void" => "void".into(),
            "c_char" => "char".into(),
            "c_int" => "int".into(),
            "c_uint" => "unsigned int".into(),
            "c_long" => "long".into(),
            "c_ulong" => "unsigned long".into(),
            other => other.to_string(),
        },
    }
}

// ------------------------------------------------------------------------------------------------
// Source reading
// ------------------------------------------------------------------------------------------------

/// Removes `//` comments (doc comments included) line by line.
fn strip_comments(s: &str) -> String {
    s.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `<prefix>NAME = RHS;` item in `s`, with `RHS` up to the `;` outside brackets.
fn items(s: &str, prefix: &str) -> Vec<(String, String)> {
    let s = strip_comments(s);
    let mut out = Vec::new();
    let mut rest = s.as_str();
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let after = rest[name.len()..].trim_start();
        let Some(rhs) = after.strip_prefix('=') else { continue };
        let mut depth = 0i32;
        let mut end = rhs.len();
        for (i, c) in rhs.char_indices() {
            match c {
                '(' | '<' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '>' if i > 0 && rhs.as_bytes()[i - 1] == b'-' => {}
                '>' => depth -= 1,
                ';' if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.push((name, rhs[..end].trim().to_string()));
    }
    out
}

/// The text between the first `{` of `s` and its matching `}`.
fn body(s: &str) -> Option<&str> {
    let open = s.find('{')?;
    // A struct ends at its first line starting with `}` (rustfmt places it there).
    let semi = s.find(';');
    if semi.is_some_and(|p| p < open) {
        return None; // a tuple/unit struct
    }
    let mut depth = 0i32;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// `pub name: Type,` fields of a struct body, in order.
fn fields(body: &str) -> Vec<(String, String)> {
    let body = strip_comments(body);
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0usize;
    let bytes = body.as_bytes();
    let mut push = |item: &str| {
        let item = item.trim();
        let item = item.strip_prefix("pub ").unwrap_or(item);
        if let Some((n, t)) = item.split_once(':') {
            out.push((n.trim().to_string(), t.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
    };
    for (i, c) in body.char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '>' if i > 0 && bytes[i - 1] == b'-' => {}
            '>' => depth -= 1,
            ',' if depth == 0 => {
                push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&body[start..]);
    out
}

/// The `_fn` entries of table struct `name` in `s`: (field, PFN alias).
fn table_entries(s: &str, name: &str) -> Result<Vec<(String, String)>> {
    let at = s.find(&format!("pub struct {name} {{")).ok_or_else(|| anyhow!("no struct {name}"))?;
    let b = body(&s[at..]).ok_or_else(|| anyhow!("struct {name} has no body"))?;
    let mut out = Vec::new();
    for (field, ty) in fields(b) {
        if field == "version" {
            continue;
        }
        let Some(pfn) = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')) else {
            bail!("{name}::{field} is not an Option<PFN_..> entry: {ty}");
        };
        if !field.ends_with("_fn") {
            bail!("{name}::{field} does not end in _fn");
        }
        out.push((field, pfn.trim().to_string()));
    }
    Ok(out)
}

// ------------------------------------------------------------------------------------------------
// Generation
// ------------------------------------------------------------------------------------------------

/// One parameter as generated.
struct Param {
    name: String,
    c_type: String,
    kind: Kind,
}

/// Builds both files from `api_trace.rs` and the concatenated `rocprof-hsa-sys` sources.
fn generate(api_trace: &str, all: &str) -> Result<(String, String)> {
    let decls = Decls::read(all)?;
    let split = api_trace.find("pub mod rocm_5_2").ok_or_else(|| anyhow!("no rocm_5_2 module in {API_TRACE}"))?;
    let (newest, old) = api_trace.split_at(split);
    let mut handle_types = BTreeSet::new();
    let mut struct_types = BTreeSet::new();
    let mut max_arity = 0usize;

    let mut model = String::new();
    model.push_str(
        "//! HSA API operations per domain, in rocprofiler-sdk's operation-id order (the entry order of\n\
         //! the newest ROCr API tables), with every parameter's name, C type and print kind.\n\
         //!\n\
         //! @generated by `cargo xtask codegen-hsa-api` from `crates/hsa-sys` (do not edit).\n\n\
         use super::ApiOperation;\n\
         use crate::api::{ApiArgInfo, ArgKind};\n\n\
         const fn a(name: &'static str, ty: &'static str, kind: ArgKind) -> ApiArgInfo {\n    \
         ApiArgInfo { name, ty, kind }\n}\n",
    );
    let mut intercept = String::new();
    intercept.push_str(
        "//! Every entry of the traced HSA API tables, per table layout, with its operation id (the\n\
         //! index in the newest layout); expanded by `hsa_table!` into the tracing wrappers.\n\
         //!\n\
         //! @generated by `cargo xtask codegen-hsa-api` from `crates/hsa-sys` (do not edit).\n\n\
         use rocprof_hsa_sys::*;\n\n\
         use super::{handle_args, hsa_table, struct_args};\n",
    );
    let mut newest_ids: HashMap<String, usize> = HashMap::new();
    for (domain, table) in DOMAINS {
        let entries = table_entries(newest, table)?;
        writeln!(model, "\n/// `{table}`.\npub(super) static {domain}: [ApiOperation; {}] = [", entries.len())?;
        for (i, (field, pfn)) in entries.iter().enumerate() {
            let fname = field.strip_suffix("_fn").expect("checked in table_entries");
            newest_ids.insert(format!("{table}::{field}"), i);
            let sig = decls.aliases.get(pfn).ok_or_else(|| anyhow!("{table}::{field}: no type alias {pfn}"))?;
            let Ty::Fn { params, .. } = sig else { bail!("{pfn} is not a function type") };
            max_arity = max_arity.max(params.len());
            let mut ps = Vec::new();
            for (name, t) in params {
                let kind = decls.kind(t).with_context(|| format!("{fname}: parameter {name}"))?;
                match decls.by_value_struct(t) {
                    Some((h, true)) => {
                        handle_types.insert(h);
                    }
                    Some((st, false)) => {
                        struct_types.insert(st);
                    }
                    None => {}
                }
                ps.push(Param { name: name.clone(), c_type: c_type(t), kind });
            }
            let args: Vec<String> =
                ps.iter().map(|p| format!("a({:?}, {:?}, ArgKind::{:?})", p.name, p.c_type, p.kind)).collect();
            writeln!(model, "    ApiOperation {{ name: {fname:?}, args: &[{}] }},", args.join(", "))?;
        }
        model.push_str("];\n");

        writeln!(intercept, "\nhsa_table!({table}, {domain}, [")?;
        for (i, (field, _)) in entries.iter().enumerate() {
            writeln!(intercept, "    {field} = {i},")?;
        }
        intercept.push_str("]);\n");
    }
    // The ROCm 5.2 AMD extension table: same functions, another order; ids by name.
    let old_amd = table_entries(old, "AmdExtTable")?;
    writeln!(intercept, "\nhsa_table!(rocm_5_2::AmdExtTable, AMD_EXT, [")?;
    for (field, _) in &old_amd {
        let id = newest_ids
            .get(&format!("AmdExtTable::{field}"))
            .ok_or_else(|| anyhow!("rocm_5_2::AmdExtTable::{field} is not in the newest AmdExtTable"))?;
        writeln!(intercept, "    {field} = {id},")?;
    }
    intercept.push_str("]);\n");
    writeln!(intercept, "\nhandle_args!({});", handle_types.into_iter().collect::<Vec<_>>().join(", "))?;
    writeln!(intercept, "struct_args!({});", struct_types.into_iter().collect::<Vec<_>>().join(", "))?;
    writeln!(
        intercept,
        "\n/// Most parameters of a traced function.\npub(crate) const MAX_ARITY: usize = {max_arity};"
    )?;
    Ok((model, intercept))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in files must equal what the generator produces from `rocprof-hsa-sys`.
    #[test]
    fn generated_hsa_api_tables_are_fresh() {
        let (model, intercept) = generate_from_sources().unwrap();
        for (rel, text) in [(MODEL_OUT, model), (INTERCEPT_OUT, intercept)] {
            let current = fs::read_to_string(crate::host::root().join(rel)).unwrap_or_default();
            assert!(current == text, "{rel} is stale; run `cargo xtask codegen-hsa-api` and commit the result");
        }
    }

    #[test]
    fn types_parse_and_print_as_c() {
        let t =
            parse_ty("Option<unsafe extern \"C\" fn(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t>").unwrap();
        assert_eq!(c_type(&t), "hsa_status_t (*)(hsa_agent_t, void*)");
        assert_eq!(c_type(&parse_ty("*mut *const c_char").unwrap()), "const char**");
        assert_eq!(c_type(&parse_ty("*const hsa_dim3_t").unwrap()), "const hsa_dim3_t*");
        assert_eq!(c_type(&parse_ty("core::ffi::c_uint").unwrap()), "unsigned int");
        assert!(parse_ty("*mut").is_err());
    }

    #[test]
    fn kinds_follow_aliases_and_reject_unknown_types() {
        let src = "pub type hsa_status_t = c_uint;\npub struct hsa_agent_s {\n    pub handle: u64,\n}\n\
                   pub type hsa_agent_t = hsa_agent_s;\npub struct hsa_dim3_s {\n    pub x: u32,\n    pub y: u32,\n}\n\
                   pub type hsa_dim3_t = hsa_dim3_s;\npub type hsa_signal_value_t = i64;\n";
        let d = Decls::read(src).unwrap();
        assert_eq!(d.kind(&Ty::Named("hsa_status_t".into())).unwrap(), Kind::Unsigned);
        assert_eq!(d.kind(&Ty::Named("hsa_agent_t".into())).unwrap(), Kind::Handle);
        assert_eq!(d.kind(&Ty::Named("hsa_signal_value_t".into())).unwrap(), Kind::Signed);
        assert_eq!(d.by_value_struct(&Ty::Named("hsa_agent_t".into())), Some(("hsa_agent_s".into(), true)));
        assert_eq!(d.kind(&Ty::Named("hsa_dim3_t".into())).unwrap(), Kind::Struct);
        assert_eq!(d.by_value_struct(&Ty::Named("hsa_dim3_t".into())), Some(("hsa_dim3_s".into(), false)));
        let err = format!("{:#}", d.kind(&Ty::Named("hsa_nothing_t".into())).unwrap_err());
        assert!(err.contains("unknown type hsa_nothing_t"), "{err}");
    }

    #[test]
    fn table_fields_are_read_in_order() {
        let s = "pub struct T {\n    /// doc, with a comma\n    pub version: ApiTableVersion,\n    pub a_fn: Option<PFN_a>,\n    pub b_fn:\n        Option<PFN_b>,\n}\n";
        let e = table_entries(s, "T").unwrap();
        assert_eq!(e, [("a_fn".to_string(), "PFN_a".to_string()), ("b_fn".to_string(), "PFN_b".to_string())]);
    }
}
