package mcpserver_test

import (
	"context"
	"net"
	"syscall"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/mcpserver"
	"github.com/sgrgraph/sgrgraph/models"
)

// A model that cannot be reached makes both ask tools a tool error naming
// the cause, never a result that reads as an answer, and no address.
func TestModelFailureIsAToolError(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 8000}, Err: syscall.ECONNREFUSED}
	down := models.New("Down", func(context.Context, []*schema.Message, *model.Options) ([]*schema.Message, error) {
		return nil, refused
	})
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: shared.Knowledge(), Model: down})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(a, mcpserver.Options{Version: "test"}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	for _, tool := range []string{"ask", "ask_structured"} {
		res := call(t, cs, tool, map[string]any{"question": "How do I configure the safety guard?"})
		require.True(t, res.IsError, "got a result: %s", text(res))
		assert.Contains(t, text(res), "model service did not answer (connect")
		assert.NotContains(t, text(res), "10.0.0.7")
	}
}

// A second turn on a conversation whose turn is running is a tool error
// that says so, naming no process or host.
func TestBusySessionIsAToolError(t *testing.T) {
	store := checkpoint.NewMemory()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: shared.Knowledge(), Store: store})
	require.NoError(t, err)
	t.Cleanup(func() { a.Close(); store.Close() })
	lock, err := a.LockThread(context.Background(), "s1", "request abc on host-7")
	require.NoError(t, err)
	defer lock.Release()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(a, mcpserver.Options{Version: "test"}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	res := call(t, cs, "ask", map[string]any{"question": "How do I configure the safety guard?", "session_id": "s1"})
	require.True(t, res.IsError, "got a result: %s", text(res))
	assert.Contains(t, text(res), "another turn of this conversation is running")
	assert.NotContains(t, text(res), "host-7")
}
