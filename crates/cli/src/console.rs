//! Writing to the console (a leaf: the report printers of several commands use it).

/// Writes `text` to the console. A reader that went away (`rocprof-rs -S ... | head`) is not an
/// error: `print!` would panic there, losing the exit status and whatever was still to be
/// written.
pub(crate) fn to_console(mut w: impl std::io::Write, text: &str) -> std::io::Result<()> {
    match w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::to_console;

    #[test]
    fn a_closed_console_is_not_an_error() {
        struct Closed;
        impl std::io::Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert!(to_console(Closed, "table").is_ok());
        let mut v = Vec::new();
        to_console(&mut v, "table").unwrap();
        assert_eq!(v, b"table");
    }
}
