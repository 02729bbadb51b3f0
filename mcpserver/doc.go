// Package mcpserver serves sgrgraph's default turn over the Model Context
// Protocol, so that MCP clients (IDE assistants, desktop chat apps, other
// agents) can ask the guarded agent and search its knowledge base:
//
//	tool ask             one turn; the answer text (with its sources)
//	tool ask_structured  one turn; the whole StructuredResult as JSON
//	tool search_kb       the knowledge base's ranked articles as JSON
//	resource table://DT-001 … the decision tables, as Markdown
//
// New builds the server; it is served over stdio (sgrgraph mcp) or over
// Streamable HTTP (HTTPHandler, mounted at /mcp). Every failure a caller
// can cause or meet (a bad argument, a failed turn, a turn held for a
// person's review) is a tool error, IsError with a message naming the
// field and its limit, never a protocol error: a model reading the result
// can correct its call. What leaves the server is masked as the agent's
// results are: personal data in answers and articles is hidden.
package mcpserver
