// Package mcptools takes tools from MCP servers: it connects to each server
// with the official go-sdk's client, over stdio (a command it starts) or
// Streamable HTTP (a URL, with headers or a bearer token), lists the
// server's tools and gives each one to an eino graph as a
// tool.InvokableTool with the server's own JSON schema.
//
//	ts, err := mcptools.Connect(ctx, []mcptools.Server{
//		{Name: "fs", Command: "mcp-server-filesystem", Args: []string{"/srv/docs"},
//			Allow: []string{"read_text_file", "search_files"}},
//		{Name: "crm", URL: "https://crm.example.com/mcp", BearerToken: token},
//	}, mcptools.Options{})
//	defer ts.Close()
//	tools := ts.InvokableTools() // fs__read_text_file, fs__search_files, crm__…
//
// A tool's name is its server's name, two underscores and the server's
// name for it, so two servers' tools never clash; Allow and Deny pick
// which of a server's tools are offered (patterns of path.Match, on the
// server's names). The default turn takes them from tools.mcp in the
// configuration (agent.New), each server's tools evidence of the source
// kind it declares.
//
// Every call is bounded: connecting (starting the command, the handshake
// and the tool list) by Server.ConnectTimeout, one tool call by
// Server.CallTimeout. A connection that is lost (the command exited, the
// HTTP session expired) is made again for the next call, at most
// Server.Attempts times a call, and a call that was cut by it is sent
// again only when the server marks the tool read-only or idempotent: any
// other tool might have acted already. Errors name the server and the tool.
//
// What a server returns is untrusted text. The default turn's tool step
// (nodes.AgentTools) reads every result with the Guardian's injection
// screen before the model or the evidence sees it, and sets aside a result
// that gives the assistant orders; this package passes text results on as
// the server wrote them (never re-quoted, which would hide an order from
// the screen: it reads quoted words as a mention) and itself screens what
// a tool step would miss: the strings of a JSON result, which read whole
// are quotations (an order in one fails the call: the result is withheld),
// and a server's error text, which is quoted, or withheld when it gives
// orders. A graph of your own that has no such step sets
// Options.ScreenResults.
package mcptools
