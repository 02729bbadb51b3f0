package mcptools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sgrgraph/sgrgraph/guards/safety"
)

// Options apply to every server of a Connect.
type Options struct {
	// Screen reads the text servers write for orders given to the
	// assistant: their errors always, their results with ScreenResults;
	// nil reads it with the embedded lexicon's (safety.NewDefaultRules),
	// the screen the default turn's tool step reads results with.
	Screen safety.InjectionFinder
	// ScreenResults has each tool screen its results too, and answer with
	// Withheld in place of one that gives orders: for a graph whose tool
	// step does not screen them. The default turn's does (nodes.AgentTools),
	// and records what it set aside, so the agent leaves this off.
	ScreenResults bool
	// ClientName and ClientVersion are what the client tells servers in
	// its handshake; "sgrgraph" and "dev" when empty.
	ClientName, ClientVersion string
}

// Toolset is the tools of the servers Connect reached, and their
// connections. Close ends them.
type Toolset struct {
	conns []*conn
	tools []*Tool
}

// maxPages bounds the pages of a server's tool list.
const maxPages = 100

// defaultScreen is the embedded lexicon's screen, built once a process.
var defaultScreen = sync.OnceValues(func() (safety.InjectionFinder, error) { return safety.NewDefaultRules() })

// Connect reaches every server at once, lists its tools and keeps those
// its Allow and Deny offer. A server that cannot be reached, or whose
// tools cannot be offered as configured, fails the whole Connect with an
// error naming it; the servers reached are then closed again.
func Connect(ctx context.Context, servers []Server, o Options) (*Toolset, error) {
	names := map[string]bool{}
	var errs []error
	for i, s := range servers {
		if err := s.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("mcp server %d (%q): %w", i, s.Name, err))
		}
		if names[s.Name] {
			errs = append(errs, fmt.Errorf("mcp server %d: the name %q is taken by an earlier server", i, s.Name))
		}
		names[s.Name] = true
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sc := &screen{finder: o.Screen, results: o.ScreenResults}
	if sc.finder == nil {
		f, err := defaultScreen()
		if err != nil {
			return nil, fmt.Errorf("mcp: the injection screen: %w", err)
		}
		sc.finder = f
	}
	client := mcp.NewClient(&mcp.Implementation{Name: cmp.Or(o.ClientName, "sgrgraph"), Version: cmp.Or(o.ClientVersion, "dev")}, nil)
	ts := &Toolset{conns: make([]*conn, len(servers))}
	found := make([][]*Tool, len(servers))
	errs = make([]error, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		c := newConn(s, client)
		ts.conns[i] = c
		wg.Go(func() {
			found[i], errs[i] = c.tools(ctx, sc)
			if errs[i] != nil {
				errs[i] = c.failure("", errs[i])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		ts.Close()
		return nil, err
	}
	for _, f := range found {
		ts.tools = append(ts.tools, f...)
	}
	return ts, nil
}

// tools connects and lists the server's tools offered.
func (c *conn) tools(ctx context.Context, sc *screen) ([]*Tool, error) {
	s, err := c.get(ctx)
	if err != nil {
		return nil, err
	}
	listCtx, cancel := context.WithTimeout(ctx, c.srv.ConnectTimeout)
	defer cancel()
	var all []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("list tools: over %d pages", maxPages)
		}
		res, err := s.ListTools(listCtx, params)
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		all = append(all, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		params.Cursor = res.NextCursor
	}
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name
	}
	if missing := c.srv.unmatchedAllow(names); len(missing) > 0 {
		slices.Sort(names)
		return nil, fmt.Errorf("allow: %s: no such tool; the server has %s", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	var out []*Tool
	taken := map[string]string{}
	var errs []error
	for _, t := range all {
		if !c.srv.offered(t.Name) {
			continue
		}
		name, err := c.srv.localName(t.Name)
		if err == nil && taken[name] != "" {
			err = fmt.Errorf("its name here, %s, is %q's too; deny one of them", name, taken[name])
		}
		var tl *Tool
		if err == nil {
			tl, err = newTool(c, t, name, sc)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tool %q: %w", t.Name, err))
			continue
		}
		taken[name] = t.Name
		out = append(out, tl)
	}
	return out, errors.Join(errs...)
}

// Tools are the tools offered, server by server in the order given, each
// server's in the order it listed them.
func (ts *Toolset) Tools() []*Tool { return slices.Clone(ts.tools) }

// InvokableTools are Tools as eino tools, for a ToolsNode or a model's
// tool list.
func (ts *Toolset) InvokableTools() []tool.InvokableTool {
	out := make([]tool.InvokableTool, len(ts.tools))
	for i, t := range ts.tools {
		out[i] = t
	}
	return out
}

// Close ends every connection: each command's input is closed, and a
// command that does not exit is stopped.
func (ts *Toolset) Close() error {
	if ts == nil {
		return nil
	}
	errs := make([]error, len(ts.conns))
	var wg sync.WaitGroup
	for i, c := range ts.conns {
		wg.Go(func() { errs[i] = c.close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}
