//! toolgate with real frameworks: the tests (`tests/`) run rmcp's client against toolgate's MCP
//! server, a rig agent with toolgate tools, and async-openai's HTTP client against a local server
//! replaying recorded responses. The `mcp_server` example is also built as a binary of this
//! package, for the tests to start as a child process.
