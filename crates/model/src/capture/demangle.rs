//! A small Itanium C++ ABI demangler for kernel symbol names, printing what `c++filt` prints for
//! the names GPU kernels actually have: namespaces, classes, templates (type and literal
//! arguments), cv-qualified pointers and references, substitutions, template parameters, `std::`
//! abbreviations, anonymous namespaces and `.clone` suffixes.
//!
//! It is deliberately small: the mandated dependencies have no demangler, and the names the
//! outputs print only need this subset. Anything it does not understand (operator names,
//! expressions, function types, pointer-to-member) makes [`demangle`] return `None`, and callers
//! keep the raw name, which is what rocprofv3 prints when its demangler fails, too.

/// Demangles an Itanium-mangled name (`_Z...`). Returns `None` for names that are not mangled or
/// use constructs outside the supported subset.
pub fn demangle(mangled: &str) -> Option<String> {
    let rest = mangled.strip_prefix("_Z")?;
    let mut p = Parser { s: rest.as_bytes(), pos: 0, subs: Vec::new(), tparams: Vec::new(), depth: 0 };
    let out = p.encoding()?;
    let tail = &rest[p.pos..];
    if tail.is_empty() {
        Some(out)
    } else if tail.starts_with('.') {
        Some(format!("{out} [clone {tail}]"))
    } else {
        None
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Substitution candidates, in order of appearance.
    subs: Vec<String>,
    /// Template arguments of the outermost template, for `T_`.
    tparams: Vec<String>,
    /// Recursion depth guard, so hostile input cannot overflow the stack.
    depth: u32,
}

/// A parsed name: its text, whether it ends in template arguments, and cv-qualifiers of a member
/// function (printed after the parameter list).
struct Name {
    text: String,
    is_template: bool,
    cv: &'static str,
    is_ctor_dtor: bool,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn peek2(&self) -> Option<u8> {
        self.s.get(self.pos + 1).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn encoding(&mut self) -> Option<String> {
        let name = self.name()?;
        if self.pos >= self.s.len() || self.peek() == Some(b'.') || self.peek() == Some(b'E') {
            // A data name (no parameters).
            return Some(name.text);
        }
        let ret = if name.is_template && !name.is_ctor_dtor { Some(self.ty()?) } else { None };
        let mut params = Vec::new();
        while self.pos < self.s.len() && self.peek() != Some(b'.') && self.peek() != Some(b'E') {
            params.push(self.ty()?);
        }
        if params.is_empty() {
            return None;
        }
        let params = if params.len() == 1 && params[0] == "void" { String::new() } else { params.join(", ") };
        let mut out = String::new();
        if let Some(r) = ret {
            out.push_str(&r);
            out.push(' ');
        }
        out.push_str(&name.text);
        out.push('(');
        out.push_str(&params);
        out.push(')');
        out.push_str(name.cv);
        Some(out)
    }

    fn name(&mut self) -> Option<Name> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let r = self.name_inner();
        self.depth -= 1;
        r
    }

    fn name_inner(&mut self) -> Option<Name> {
        match self.peek()? {
            b'N' => self.nested_name(),
            b'Z' => self.local_name(),
            _ => {
                // unscoped-name [template-args]
                let mut text = String::new();
                let is_sub = self.peek() == Some(b'S') && self.peek2() != Some(b't');
                if is_sub {
                    text = self.substitution()?;
                } else {
                    if self.peek() == Some(b'S') && self.peek2() == Some(b't') {
                        self.pos += 2;
                        text.push_str("std::");
                    }
                    let (u, _) = self.unqualified_name(None)?;
                    text.push_str(&u);
                }
                if self.peek() == Some(b'I') {
                    if !is_sub {
                        self.subs.push(text.clone());
                    }
                    let args = self.template_args(true)?;
                    text.push_str(&args);
                    return Some(Name { text, is_template: true, cv: "", is_ctor_dtor: false });
                }
                Some(Name { text, is_template: false, cv: "", is_ctor_dtor: false })
            }
        }
    }

    fn local_name(&mut self) -> Option<Name> {
        // Z <function encoding> E <entity name> [<discriminator>]
        self.pos += 1;
        let func = self.encoding()?;
        if !self.eat(b'E') {
            return None;
        }
        let inner = self.name()?;
        if self.eat(b'_') {
            self.number()?;
        }
        Some(Name { text: format!("{func}::{}", inner.text), ..inner })
    }

    fn nested_name(&mut self) -> Option<Name> {
        self.pos += 1; // N
        let mut cv = "";
        loop {
            match self.peek()? {
                b'r' => {
                    self.pos += 1;
                }
                b'V' => {
                    self.pos += 1;
                    cv = if cv.is_empty() { " volatile" } else { " const volatile" };
                }
                b'K' => {
                    self.pos += 1;
                    cv = if cv == " volatile" { " const volatile" } else { " const" };
                }
                b'R' | b'O' => {
                    self.pos += 1;
                }
                _ => break,
            }
        }
        let mut text = String::new();
        let mut is_template = false;
        let mut last_unqualified = String::new();
        let mut is_ctor_dtor = false;
        loop {
            match self.peek()? {
                b'E' => {
                    self.pos += 1;
                    break;
                }
                b'S' if self.peek2() == Some(b't') && text.is_empty() => {
                    self.pos += 2;
                    text.push_str("std");
                    continue;
                }
                b'S' => {
                    let s = self.substitution()?;
                    if !text.is_empty() {
                        text.push_str("::");
                    }
                    text.push_str(&s);
                    last_unqualified = s.rsplit("::").next().unwrap_or("").to_owned();
                    is_template = false;
                    continue;
                }
                b'T' => {
                    let t = self.template_param()?;
                    text.push_str(&t);
                    self.subs.push(text.clone());
                    is_template = false;
                    continue;
                }
                b'I' => {
                    if text.is_empty() {
                        return None;
                    }
                    let args = self.template_args(true)?;
                    text.push_str(&args);
                    is_template = true;
                }
                b'L' => {
                    self.pos += 1;
                    continue;
                }
                b'D' if self.peek2() == Some(b'C') => return None,
                _ => {
                    let (u, cd) = self.unqualified_name(Some(&last_unqualified))?;
                    is_ctor_dtor = cd;
                    if !text.is_empty() {
                        text.push_str("::");
                    }
                    last_unqualified = u.clone();
                    text.push_str(&u);
                    is_template = false;
                }
            }
            // Every prefix except the complete name is a substitution candidate; the complete
            // name is popped again below.
            self.subs.push(text.clone());
        }
        // The full nested name is not itself a candidate.
        self.subs.pop();
        Some(Name { text, is_template, cv, is_ctor_dtor })
    }

    /// `<source-name>`, a constructor/destructor name (needs the enclosing class), or
    /// `<unnamed-type-name>`. Returns the text and whether it was a ctor/dtor.
    fn unqualified_name(&mut self, class: Option<&str>) -> Option<(String, bool)> {
        match self.peek()? {
            b'0'..=b'9' => Some((self.source_name()?, false)),
            b'C' => {
                let class = class?;
                self.pos += 1;
                self.eat(b'I');
                match self.peek()? {
                    b'1'..=b'5' => self.pos += 1,
                    _ => return None,
                }
                Some((strip_template_args(class).to_owned(), true))
            }
            b'D' if matches!(self.peek2(), Some(b'0'..=b'5')) => {
                let class = class?;
                self.pos += 2;
                Some((format!("~{}", strip_template_args(class)), true))
            }
            b'U' if self.peek2() == Some(b't') => {
                self.pos += 2;
                let n = if self.peek() == Some(b'_') { 1 } else { self.number()? + 2 };
                if !self.eat(b'_') {
                    return None;
                }
                Some((format!("{{unnamed type#{n}}}"), false))
            }
            _ => None,
        }
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        std::str::from_utf8(&self.s[start..self.pos]).ok()?.parse().ok()
    }

    fn source_name(&mut self) -> Option<String> {
        let len = self.number()?;
        let end = self.pos.checked_add(len)?;
        let id = std::str::from_utf8(self.s.get(self.pos..end)?).ok()?;
        self.pos = end;
        if id.starts_with("_GLOBAL__N") {
            return Some("(anonymous namespace)".to_owned());
        }
        Some(id.to_owned())
    }

    /// `S_`, `S<seq-id>_` or a `std::` abbreviation.
    fn substitution(&mut self) -> Option<String> {
        self.pos += 1; // S
        let c = self.peek()?;
        let abbrev = match c {
            b'a' => Some("std::allocator"),
            b'b' => Some("std::basic_string"),
            b's' => Some("std::string"),
            b'i' => Some("std::istream"),
            b'o' => Some("std::ostream"),
            b'd' => Some("std::iostream"),
            _ => None,
        };
        if let Some(a) = abbrev {
            self.pos += 1;
            return Some(a.to_owned());
        }
        let idx = if c == b'_' {
            0
        } else {
            let start = self.pos;
            while matches!(self.peek(), Some(b'0'..=b'9' | b'A'..=b'Z')) {
                self.pos += 1;
            }
            let mut n = 0usize;
            for &d in &self.s[start..self.pos] {
                let v = if d.is_ascii_digit() { d - b'0' } else { d - b'A' + 10 } as usize;
                n = n.checked_mul(36)?.checked_add(v)?;
            }
            n + 1
        };
        if !self.eat(b'_') {
            return None;
        }
        self.subs.get(idx).cloned()
    }

    fn template_param(&mut self) -> Option<String> {
        self.pos += 1; // T
        let idx = if self.peek() == Some(b'_') { 0 } else { self.number()? + 1 };
        if !self.eat(b'_') {
            return None;
        }
        self.tparams.get(idx).cloned()
    }

    /// `I <template-arg>+ E`, printed as `<a, b>`. `record` makes these the arguments `T_`
    /// refers to.
    fn template_args(&mut self, record: bool) -> Option<String> {
        self.pos += 1; // I
        let mut args = Vec::new();
        while !self.eat(b'E') {
            args.push(self.template_arg()?);
        }
        let text = format!("<{}>", args.join(", "));
        let text = if text.ends_with('>') && text[..text.len() - 1].ends_with('>') {
            format!("{} >", &text[..text.len() - 1])
        } else {
            text
        };
        if record {
            self.tparams = args;
        }
        Some(text)
    }

    fn template_arg(&mut self) -> Option<String> {
        match self.peek()? {
            b'L' => self.expr_primary(),
            b'J' => {
                self.pos += 1;
                let mut v = Vec::new();
                while !self.eat(b'E') {
                    v.push(self.template_arg()?);
                }
                Some(v.join(", "))
            }
            b'X' => None,
            _ => self.ty(),
        }
    }

    /// `L <type> <value> E` literals (integers and bools), and `L _Z <encoding> E`.
    fn expr_primary(&mut self) -> Option<String> {
        self.pos += 1; // L
        if self.peek() == Some(b'_') && self.peek2() == Some(b'Z') {
            self.pos += 2;
            let e = self.encoding()?;
            return if self.eat(b'E') { Some(e) } else { None };
        }
        let ty = self.ty()?;
        let neg = self.eat(b'n');
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        let digits = std::str::from_utf8(&self.s[start..self.pos]).ok()?.to_owned();
        if !self.eat(b'E') {
            return None;
        }
        let v = if neg { format!("-{digits}") } else { digits };
        Some(match ty.as_str() {
            "bool" => (if v == "0" { "false" } else { "true" }).to_owned(),
            "int" => v,
            "unsigned int" => format!("{v}u"),
            "long" => format!("{v}l"),
            "unsigned long" => format!("{v}ul"),
            "long long" => format!("{v}ll"),
            "unsigned long long" => format!("{v}ull"),
            _ => format!("({ty}){v}"),
        })
    }

    fn ty(&mut self) -> Option<String> {
        self.depth += 1;
        if self.depth > 128 {
            return None;
        }
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self) -> Option<String> {
        let c = self.peek()?;
        if let Some(b) = builtin(c) {
            self.pos += 1;
            return Some(b.to_owned());
        }
        let t = match c {
            b'D' => {
                let t = match self.peek2()? {
                    b'h' => "half",
                    b'n' => "decltype(nullptr)",
                    b'a' => "auto",
                    b'i' => "char32_t",
                    b's' => "char16_t",
                    b'u' => "char8_t",
                    b'F' => {
                        self.pos += 2;
                        let n = self.number()?;
                        self.eat(b'_');
                        let t = format!("_Float{n}");
                        return Some(t);
                    }
                    b'v' => {
                        self.pos += 2;
                        let n = self.number()?;
                        if !self.eat(b'_') {
                            return None;
                        }
                        let e = self.ty()?;
                        let t = format!("{e} __vector({n})");
                        self.subs.push(t.clone());
                        return Some(t);
                    }
                    b'p' => {
                        self.pos += 2;
                        let t = format!("{}...", self.ty()?);
                        self.subs.push(t.clone());
                        return Some(t);
                    }
                    _ => return None,
                };
                self.pos += 2;
                return Some(t.to_owned());
            }
            b'P' | b'R' | b'O' => {
                self.pos += 1;
                let inner = self.ty()?;
                let suffix = match c {
                    b'P' => "*",
                    b'R' => "&",
                    _ => "&&",
                };
                format!("{inner}{suffix}")
            }
            b'K' | b'V' | b'r' => {
                let mut quals = Vec::new();
                while let Some(q) = self.peek() {
                    match q {
                        b'r' => quals.push("restrict"),
                        b'V' => quals.push("volatile"),
                        b'K' => quals.push("const"),
                        _ => break,
                    }
                    self.pos += 1;
                }
                quals.reverse();
                let inner = self.ty()?;
                format!("{inner} {}", quals.join(" "))
            }
            b'S' if self.peek2() != Some(b't') => {
                let s = self.substitution()?;
                if self.peek() == Some(b'I') {
                    let args = self.template_args(false)?;
                    let t = format!("{s}{args}");
                    self.subs.push(t.clone());
                    return Some(t);
                }
                return Some(s);
            }
            b'T' => {
                let t = self.template_param()?;
                self.subs.push(t.clone());
                if self.peek() == Some(b'I') {
                    let args = self.template_args(false)?;
                    let t = format!("{t}{args}");
                    self.subs.push(t.clone());
                    return Some(t);
                }
                return Some(t);
            }
            b'A' => {
                self.pos += 1;
                let n = self.number()?;
                if !self.eat(b'_') {
                    return None;
                }
                let e = self.ty()?;
                format!("{e} [{n}]")
            }
            b'N' | b'Z' | b'0'..=b'9' | b'S' => {
                // class-enum-type; the name registers its own prefixes.
                let saved = std::mem::take(&mut self.tparams);
                let n = self.name()?;
                if n.is_template {
                    // The template-args of a type do not replace the function's T_ bindings.
                    self.tparams = saved;
                } else {
                    self.tparams = saved;
                }
                n.text
            }
            _ => return None,
        };
        self.subs.push(t.clone());
        Some(t)
    }
}

fn builtin(c: u8) -> Option<&'static str> {
    Some(match c {
        b'v' => "void",
        b'w' => "wchar_t",
        b'b' => "bool",
        b'c' => "char",
        b'a' => "signed char",
        b'h' => "unsigned char",
        b's' => "short",
        b't' => "unsigned short",
        b'i' => "int",
        b'j' => "unsigned int",
        b'l' => "long",
        b'm' => "unsigned long",
        b'x' => "long long",
        b'y' => "unsigned long long",
        b'n' => "__int128",
        b'o' => "unsigned __int128",
        b'f' => "float",
        b'd' => "double",
        b'e' => "long double",
        b'g' => "__float128",
        b'z' => "...",
        _ => return None,
    })
}

fn strip_template_args(s: &str) -> &str {
    match s.find('<') {
        Some(i) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[track_caller]
    fn check(mangled: &str, expected: &str) {
        assert_eq!(demangle(mangled).as_deref(), Some(expected), "demangling {mangled}");
    }

    #[test]
    fn plain_functions_and_pointer_qualifiers() {
        check("_Z10vector_addPKfS0_Pfi", "vector_add(float const*, float const*, float*, int)");
        check("_Z4vaddPfS_S_", "vadd(float*, float*, float*)");
        check("_Z3foov", "foo()");
        check("_Z3barRKdPVi", "bar(double const&, int volatile*)");
    }

    #[test]
    fn templates_namespaces_and_substitutions() {
        check("_Z15addition_kernelIfEvPT_PKS0_i", "void addition_kernel<float>(float*, float const*, int)");
        check("_ZN2ns6kernelEPi", "ns::kernel(int*)");
        check("_ZN2ns5inner1kIiLi4EEEvPT_", "void ns::inner::k<int, 4>(int*)");
        check("_ZN12_GLOBAL__N_16kernelEv", "(anonymous namespace)::kernel()");
        check("_ZNK3Foo3getEv", "Foo::get() const");
        check("_Z1fIN2ns3VecEEvT_S2_", "void f<ns::Vec>(ns::Vec, ns::Vec)");
        check("_Z1fSt6vectorIiSaIiEE", "f(std::vector<int, std::allocator<int> >)");
    }

    #[test]
    fn clone_suffixes_are_kept() {
        check("_Z3foov.cold", "foo() [clone .cold]");
    }

    #[test]
    fn random_manglings_never_panic() {
        const ALPHABET: &[u8] = b"_ZNKSTILE0123456789SaSsvifdPRKVcjmxylE.Dp";
        let mut x: u64 = 7;
        for _ in 0..20_000 {
            let mut name = String::from("_Z");
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            for _ in 0..(x >> 58) as usize + 1 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                name.push(ALPHABET[(x >> 40) as usize % ALPHABET.len()] as char);
            }
            let _ = demangle(&name);
        }
    }

    #[test]
    fn unsupported_or_plain_names_return_none() {
        assert_eq!(demangle("vector_add"), None);
        assert_eq!(demangle("_ZplRK1AS1_"), None, "operator names are outside the subset");
        assert_eq!(demangle("_Z"), None);
        assert_eq!(demangle("_Z99x"), None);
        // Deep nesting must not overflow the stack.
        let deep = format!("_Z1f{}i", "P".repeat(10_000));
        assert_eq!(demangle(&deep), None);
    }
}
