//! The DBU chapter: the default pipeline, every hook as [`super::Family`] defines it.

/// The DBU family; its data is all in the shared tables.
pub struct Dbu;

impl super::Family for Dbu {}
