//! The one trait every launch setting implements, and the process environment it is read from.

/// A setting carried in one environment variable.
pub trait Setting: Sized {
    /// The variable (one of [`crate::names`]).
    const NAME: &'static str;

    /// The variable's value.
    fn encode(&self) -> String;

    /// Reads a value of [`Setting::encode`]'s form; the error says what is wrong, on one line.
    fn decode(text: &str) -> Result<Self, String>;

    /// `(name, value)` for the launch environment.
    fn to_env(&self) -> (&'static str, String) {
        (Self::NAME, self.encode())
    }

    /// Decodes the variable from `get` (normally [`process_env`]); `None` when it is not set.
    fn from_env(get: impl Fn(&str) -> Option<String>) -> Option<Result<Self, String>> {
        get(Self::NAME).map(|text| Self::decode(&text))
    }
}

/// Reads a variable of this process's environment (unset or not UTF-8: `None`).
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}
