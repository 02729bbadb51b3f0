// Command mcp-tools takes tools from two MCP servers over stdio and calls
// them as eino tools: the reference server-everything from the npm
// registry, and sgrgraph's own (sgrgraph mcp), which searches the
// embedded documentation. Each tool's name is its server's name, two
// underscores and its own; allow lists pick which tools are offered.
//
// Run it from the repository's root with
//
//	go run ./examples/mcp-tools
//
// which starts the servers with npx and go run; -everything and -sgrgraph
// name other commands (an installed server, a built binary).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sgrgraph/sgrgraph/mcptools"
)

func main() {
	everything := flag.String("everything", "npx -y @modelcontextprotocol/server-everything@2026.8.31",
		"the command that runs server-everything over stdio")
	sgrgraph := flag.String("sgrgraph", "go run ./cmd/sgrgraph mcp", "the command that runs sgrgraph mcp")
	flag.Parse()
	servers := []mcptools.Server{
		{Name: "everything", Command: first(*everything), Args: rest(*everything)},
		{Name: "sgrgraph", Command: first(*sgrgraph), Args: rest(*sgrgraph)},
	}
	if err := run(context.Background(), os.Stdout, servers); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-tools:", err)
		os.Exit(1)
	}
}

func first(cmd string) string  { return strings.Fields(cmd)[0] }
func rest(cmd string) []string { return strings.Fields(cmd)[1:] }

// run connects to the two servers (everything, then sgrgraph), offers
// three of their tools and calls each once.
func run(ctx context.Context, w io.Writer, servers []mcptools.Server) error {
	servers[0].Allow = []string{"echo", "get-sum"}
	servers[1].Allow = []string{"search_kb"}
	ts, err := mcptools.Connect(ctx, servers, mcptools.Options{})
	if err != nil {
		return err
	}
	defer ts.Close()
	tools := map[string]*mcptools.Tool{}
	for _, t := range ts.Tools() {
		tools[t.Name()] = t
		fmt.Fprintf(w, "%s (%s's %s)\n", t.Name(), t.Server(), t.Remote())
	}
	echo, err := tools["everything__echo"].InvokableRun(ctx, `{"message":"hello from sgrgraph"}`)
	if err != nil {
		return err
	}
	sum, err := tools["everything__get-sum"].InvokableRun(ctx, `{"a":2,"b":3}`)
	if err != nil {
		return err
	}
	found, err := tools["sgrgraph__search_kb"].InvokableRun(ctx, `{"query":"connect to MCP servers","top_k":1}`)
	if err != nil {
		return err
	}
	var res struct {
		Articles []struct {
			KBID  string `json:"kb_id"`
			Title string `json:"title"`
		} `json:"articles"`
	}
	if err := json.Unmarshal([]byte(found), &res); err != nil || len(res.Articles) == 0 {
		return fmt.Errorf("search_kb answered %q (%w)", found, err)
	}
	fmt.Fprintf(w, "echo: %s\nget-sum: %s\nsearch_kb: %s (%s)\n", echo, sum, res.Articles[0].Title, res.Articles[0].KBID)
	return nil
}
