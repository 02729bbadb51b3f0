package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/mcptools/mcptest"
)

// connect connects to servers and closes them when the test ends.
func connect(t *testing.T, servers ...Server) *Toolset {
	t.Helper()
	ts, err := Connect(context.Background(), servers, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, ts.Close()) })
	return ts
}

// tool is the toolset's tool of this name.
func find(t *testing.T, ts *Toolset, name string) *Tool {
	t.Helper()
	for _, tl := range ts.Tools() {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func names(ts *Toolset) []string {
	var out []string
	for _, tl := range ts.Tools() {
		out = append(out, tl.Name())
	}
	return out
}

func everything(t *testing.T) Server {
	cmd, args := mcptest.NPMServer(t, mcptest.Everything)
	return Server{Name: "everything", Command: cmd, Args: args}
}

// server-everything over stdio: its tools come prefixed, with their
// schemas, and answer; the command gets the env configured and none of
// this process's other variables.
func TestEverythingOverStdio(t *testing.T) {
	t.Setenv("SGRGRAPH_TEST_SECRET", "do-not-pass")
	srv := everything(t)
	srv.Env = map[string]string{"TEAM_NOTE": "passed on"}
	srv.Deny = []string{"toggle-*", "trigger-*", "simulate-*"}
	ts := connect(t, srv)
	got := names(ts)
	assert.Contains(t, got, "everything__echo")
	assert.Contains(t, got, "everything__get-sum")
	assert.NotContains(t, got, "everything__toggle-simulated-logging", "denied")
	ctx := context.Background()

	echo := find(t, ts, "everything__echo")
	info, err := echo.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Echoes back the input string", info.Desc)
	s, err := info.ToJSONSchema()
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"properties":{"message":{"description":"Message to echo","type":"string"}},"required":["message"]`)
	assert.Equal(t, "message", echo.QueryArgument())
	assert.Equal(t, "echo", echo.Remote())
	assert.Equal(t, "everything", echo.Server())
	out, err := echo.InvokableRun(ctx, `{"message":"hello"}`)
	require.NoError(t, err)
	assert.Equal(t, "Echo: hello", out)

	out, err = find(t, ts, "everything__get-sum").InvokableRun(ctx, `{"a":2,"b":3}`)
	require.NoError(t, err)
	assert.Equal(t, "The sum of 2 and 3 is 5.", out)

	out, err = find(t, ts, "everything__get-tiny-image").InvokableRun(ctx, "")
	require.NoError(t, err)
	assert.Regexp(t, `\[image: image/png, \d+ bytes\]`, out, "an image is described, not passed on")

	out, err = find(t, ts, "everything__get-env").InvokableRun(ctx, "{}")
	require.NoError(t, err)
	assert.Contains(t, out, `"TEAM_NOTE": "passed on"`)
	assert.NotContains(t, out, "SGRGRAPH_TEST_SECRET")
	assert.Contains(t, out, `"PATH"`)

	// The server refuses bad arguments: the error names server and tool.
	_, err = find(t, ts, "everything__get-sum").InvokableRun(ctx, `{"a":"two"}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mcp server "everything": tool "get-sum": `)
	_, err = echo.InvokableRun(ctx, `[1]`)
	assert.ErrorContains(t, err, `mcp server "everything": tool "echo": arguments: not a JSON object`)
}

// An Allow entry naming no tool of the server is refused, with the tools
// it has; a server that cannot start is named with its command.
func TestConnectErrorsNameTheServer(t *testing.T) {
	srv := everything(t)
	srv.Allow = []string{"echo", "ecko"}
	_, err := Connect(context.Background(), []Server{srv}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mcp server "everything": allow: ecko: no such tool; the server has echo, get-annotated-message`)

	_, err = Connect(context.Background(), []Server{{Name: "ghost", Command: "no-such-mcp-server-command"}}, Options{})
	assert.ErrorContains(t, err, `mcp server "ghost": connect (no-such-mcp-server-command): `)

	// A command that exits at once: its standard error says why.
	_, err = Connect(context.Background(), []Server{{Name: "fs", Command: srv.Command,
		Args: append(mcptestArgs(t, mcptest.Filesystem), "/no/such/dir"), Attempts: 1}}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mcp server "fs": connect (`)
	assert.Contains(t, err.Error(), "its standard error ends:")

	_, err = Connect(context.Background(), []Server{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, Options{})
	assert.ErrorContains(t, err, `mcp server 1: the name "a" is taken by an earlier server`)
}

func mcptestArgs(t *testing.T, pkg string) []string {
	_, args := mcptest.NPMServer(t, pkg)
	return args
}

// A server whose command died is started again for the next call.
func TestStdioReconnects(t *testing.T) {
	srv := everything(t)
	srv.Allow = []string{"echo"}
	ts := connect(t, srv)
	echo := find(t, ts, "everything__echo")
	ctx := context.Background()
	_, err := echo.InvokableRun(ctx, `{"message":"one"}`)
	require.NoError(t, err)
	first := echo.conn.process.Load()
	require.NotNil(t, first)
	require.NoError(t, first.Signal(syscall.SIGKILL))
	_, _ = first.Wait()
	out, err := echo.InvokableRun(ctx, `{"message":"two"}`)
	require.NoError(t, err)
	assert.Equal(t, "Echo: two", out)
	assert.NotEqual(t, first.Pid, echo.conn.process.Load().Pid, "a new process")
}

// server-everything over Streamable HTTP: its tools answer, and when the
// server restarts (its sessions gone) the next call connects again.
func TestEverythingOverHTTP(t *testing.T) {
	node, args := mcptest.NPMServer(t, mcptest.Everything)
	port := freePort(t)
	start := func() *exec.Cmd {
		cmd := exec.Command(node, append(args, "streamableHttp")...)
		cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		waitListening(t, port)
		return cmd
	}
	server := start()
	ts := connect(t, Server{Name: "remote", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Allow: []string{"echo", "get-sum"},
		Headers: map[string]string{"X-Team": "support"}, BearerToken: "not-checked-by-this-server"})
	assert.ElementsMatch(t, []string{"remote__echo", "remote__get-sum"}, names(ts))
	echo := find(t, ts, "remote__echo")
	ctx := context.Background()
	out, err := echo.InvokableRun(ctx, `{"message":"over http"}`)
	require.NoError(t, err)
	assert.Equal(t, "Echo: over http", out)

	require.NoError(t, server.Process.Kill())
	_ = server.Wait()
	start()
	out, err = echo.InvokableRun(ctx, `{"message":"after a restart"}`)
	require.NoError(t, err, "echo is read-only: sent again on a new session")
	assert.Equal(t, "Echo: after a restart", out)
}

// Nobody listening: the connection is tried Attempts times, within its
// timeout, and the error names the server and its URL.
func TestHTTPUnreachable(t *testing.T) {
	port := freePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	began := time.Now()
	_, err := Connect(context.Background(), []Server{{Name: "down", URL: url, Attempts: 2, ConnectTimeout: 2 * time.Second}}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mcp server "down": connect (`+url+`)`)
	assert.Less(t, time.Since(began), 10*time.Second)
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(t *testing.T, port int) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on port %d after 20s", port)
}

// server-filesystem, offered read-only: the write tools are not offered,
// a file in the allowed folder is read, one outside is refused by the
// server with an error naming server and tool.
func TestFilesystemReadOnly(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "refunds.md"), []byte("Refunds are paid within 14 days.\n"), 0o644))
	node, args := mcptest.NPMServer(t, mcptest.Filesystem)
	ts := connect(t, Server{Name: "fs", Command: node, Args: append(args, dir),
		Allow: []string{"read_text_file", "list_directory", "search_files", "write_file"}, Deny: []string{"write_*", "edit_*", "move_*"}})
	assert.ElementsMatch(t, []string{"fs__read_text_file", "fs__list_directory", "fs__search_files"}, names(ts))
	ctx := context.Background()
	read := find(t, ts, "fs__read_text_file")
	out, err := read.InvokableRun(ctx, fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "refunds.md")))
	require.NoError(t, err)
	assert.Equal(t, "Refunds are paid within 14 days.\n", out)
	out, err = find(t, ts, "fs__list_directory").InvokableRun(ctx, fmt.Sprintf(`{"path":%q}`, dir))
	require.NoError(t, err)
	assert.Contains(t, out, "[FILE] refunds.md")
	_, err = read.InvokableRun(ctx, `{"path":"/etc/passwd"}`)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), `mcp server "fs": tool "read_text_file": the tool failed: "`), err.Error())
	assert.Contains(t, err.Error(), "outside allowed directories")
}
