package mcpserver

import (
	"cmp"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/sgrgraph/sgrgraph/agent"
)

// Options name the server to its clients and say where it logs.
type Options struct {
	// Name and Version are what the server reports in its handshake;
	// "sgrgraph" and "dev" when empty.
	Name, Version string
	// Log receives one line per tool call; the zero Logger discards.
	// Over stdio it must not write to stdout, which carries the protocol.
	Log zerolog.Logger
	// Assistants, when set, answer the ask tools' assistant argument
	// (the server's assistants, kept in its thread store).
	Assistants *agent.Assistants
}

// New builds the MCP server of a: the tools ask, ask_structured and
// search_kb, and one resource per decision table. The agent is shared by
// every session; it is safe for concurrent use, and the caller closes it
// after the server is done.
func New(a *agent.Agent, o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: cmp.Or(o.Name, "sgrgraph"), Version: cmp.Or(o.Version, "dev")},
		&mcp.ServerOptions{
			Instructions: "Ask questions about the product with the ask tool: answers come from the documentation, " +
				"checked by a guard, with numbered sources. Use search_kb to look articles up yourself.",
			// Logging over MCP is not offered: the log goes to Options.Log.
			Capabilities: &mcp.ServerCapabilities{},
		})
	h := handlers{agent: a, log: o.Log, assistants: o.Assistants}
	addAskTools(s, h)
	addSearchTool(s, h)
	addTableResources(s, a)
	return s
}

// handlers are the tools' shared parts.
type handlers struct {
	agent      *agent.Agent
	log        zerolog.Logger
	assistants *agent.Assistants
}

// HTTPHandler serves s over Streamable HTTP, one session per client;
// mount it at /mcp behind server.Server (server.Options.MCP), whose Host
// rule (server.Options.AllowedHosts) is the one DNS-rebinding check of
// /mcp: the SDK's own is turned off, since it refused names the server
// allows (a proxy's on loopback, say). The SDK still bounds the body.
//
// owner names whom a request belongs to (the id of its API key, say): an
// MCP session answers only its opener's owner, any other gets the 404 of
// an unknown session, and the ask tools' session_id of one owner names a
// thread no other owner reaches. nil, or "", lets every request share them.
func HTTPHandler(s *mcp.Server, owner func(*http.Request) string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
	o := &owners{of: map[string]string{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(ownerHeader) // only owner sets it, never a client
		who := ""
		if owner != nil {
			who = owner(r)
		}
		if who != "" {
			r.Header.Set(ownerHeader, who)
		}
		o.serve(h, w, r, who)
	})
}

// ownerHeader carries a request's owner from HTTPHandler to the tools,
// which see the request's header (mcp.RequestExtra) and not its context.
const ownerHeader = "X-Sgrgraph-Session-Owner"

// ownerOf is the owner HTTPHandler gave a tool call; "" over stdio.
func ownerOf(req *mcp.CallToolRequest) string {
	if req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	return req.Extra.Header.Get(ownerHeader)
}
