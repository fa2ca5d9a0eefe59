//! Integration and UI tests of toolgate (no library code).
