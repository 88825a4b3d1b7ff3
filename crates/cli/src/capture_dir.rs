//! The private directory the interception library writes its captures into.

use std::path::PathBuf;

/// Removes the private capture directory when dropped, unless asked to keep it.
pub(crate) struct CaptureDir {
    pub(crate) path: PathBuf,
    pub(crate) keep: bool,
}

impl Drop for CaptureDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
