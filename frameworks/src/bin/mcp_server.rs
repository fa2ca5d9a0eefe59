//! The `mcp_server` example as a binary of this package, so that the tests can start it as a
//! child process (`CARGO_BIN_EXE_mcp_server`).

#[path = "../../examples/mcp_server.rs"]
mod example;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    example::main()
}
