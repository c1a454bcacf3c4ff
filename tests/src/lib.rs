//! Support code shared by the workspace-level integration tests.
