//! Errors in rules files: each names the file, line, column and field, and says what is wrong.

use std::path::{Path, PathBuf};

use super::locate::{FieldPath, line_col, locate};

/// One problem in one rules file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The file could not be read at all.
    #[error("{}: cannot read: {message}", file.display())]
    Unreadable { file: PathBuf, message: String },
    /// The file was read but something in it is wrong.
    #[error("{}:{line}:{col}: {field}: {message}", file.display())]
    Invalid {
        file: PathBuf,
        line: usize,
        col: usize,
        /// The field path, e.g. `archetypes[2].profiles[1]`.
        field: String,
        message: String,
    },
}

impl RulesError {
    /// An error about the value at `path` in `src` (read from `file`).
    pub fn at(file: &Path, src: &str, path: &FieldPath, message: impl Into<String>) -> Self {
        // Walk up the path until a prefix is found, so the position is as close as possible.
        let mut probe = path.clone();
        let offset = loop {
            if let Some(o) = locate(src, &probe) {
                break o;
            }
            if probe.0.pop().is_none() {
                break 0;
            }
        };
        let (line, col) = line_col(src, offset);
        Self::Invalid {
            file: file.to_path_buf(),
            line,
            col,
            field: path.to_string(),
            message: message.into(),
        }
    }

    /// The file this error is about.
    pub fn file(&self) -> &Path {
        match self {
            Self::Unreadable { file, .. } | Self::Invalid { file, .. } => file,
        }
    }
}

/// Every problem found while loading a ruleset; loading reports them all at once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct RulesErrors(pub Vec<RulesError>);
