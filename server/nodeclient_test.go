package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeOpenAIVersion is the official Node openai package the test drives:
// the newest release that runs on Node 20 (the 7.x line needs Node 22).
const nodeOpenAIVersion = "6.49.0"

// nodeCall is one line of testdata/nodeclient/chat.mjs: a call that came
// back, or the error the client raised for it.
type nodeCall struct {
	Call       string  `json:"call"`
	OK         bool    `json:"ok"`
	Content    string  `json:"content"`
	Class      string  `json:"class"`
	APIError   bool    `json:"apiError"`
	Status     *int    `json:"status"`
	Code       *string `json:"code"`
	RetryAfter *string `json:"retryAfter"`
	Message    string  `json:"message"`
	// Turn is the turn number of a completion that carried the whole
	// result (double.mjs asks for it).
	Turn *int `json:"turn"`
}

// TestNodeClient is TestModelFaults seen from the official Node client: for
// a model server that refuses, hangs or answers 5xx, the completion and the
// stream both raise an APIError of serve's status and code, never a success;
// over the offline agent both succeed, so the script can pass.
func TestNodeClient(t *testing.T) {
	script := nodeScript(t, nodeOpenAI(t), "chat.mjs")
	// The first row is the offline agent, which answers; the others are
	// rows of the fault table, each over an agent whose model faults so.
	rows := []modelFault{{name: "offline agent answers"}}
	for _, prefix := range []string{"refused", "hang", "5xx"} {
		rows = append(rows, faultNamed(t, prefix))
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			a := offline
			if row.code != "" {
				a = faultyAgent(t, row)
			}
			ts := serve(t, a, Options{})
			calls := runNode(t, script, ts.URL+"/v1", question)
			require.Len(t, calls, 2, "one line a call")
			assert.Equal(t, []string{"create", "stream"}, []string{calls[0].Call, calls[1].Call})
			for _, c := range calls {
				if row.code == "" {
					require.True(t, c.OK, "%s: the client raised %s: %s", c.Call, c.Class, c.Message)
					assert.NotEmpty(t, c.Content, "%s: an answer", c.Call)
					continue
				}
				require.False(t, c.OK, "%s: the client reported a success: %q", c.Call, c.Content)
				assert.True(t, c.APIError, "%s: %s is not an APIError: %s", c.Call, c.Class, c.Message)
				if assert.NotNil(t, c.Status, "%s: %s has no status: %s", c.Call, c.Class, c.Message) {
					assert.Equal(t, row.status, *c.Status, "%s: status", c.Call)
				}
				if assert.NotNil(t, c.Code, "%s: %s has no code: %s", c.Call, c.Class, c.Message) {
					assert.Equal(t, row.code, *c.Code, "%s: code", c.Call)
				}
				assert.Equal(t, "InternalServerError", c.Class, "%s: the class the client gives a 5xx", c.Call)
				if row.code == "model_unavailable" && assert.NotNil(t, c.RetryAfter, "%s: Retry-After", c.Call) {
					assert.Equal(t, "10", *c.RetryAfter)
				}
			}
		})
	}
}

// faultNamed is the row of modelFaults whose name begins with prefix.
func faultNamed(t *testing.T, prefix string) modelFault {
	t.Helper()
	for _, f := range modelFaults {
		if strings.HasPrefix(f.name, prefix) {
			return f
		}
	}
	t.Fatalf("no row of modelFaults begins with %q", prefix)
	return modelFault{}
}

// nodeOpenAI is a directory whose node_modules holds openai@nodeOpenAIVersion,
// installed with npm into the user's cache directory once and reused.
func nodeOpenAI(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH (%v): this test drives the official Node openai client and needs Node 20 or later with npm", tool, err)
		}
	}
	cache, err := os.UserCacheDir()
	require.NoError(t, err, "no cache directory for the npm package")
	dir := filepath.Join(cache, "sgrgraph-test", "node-openai-"+nodeOpenAIVersion)
	if nodeOpenAIInstalled(dir) {
		return dir
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o755))
	// npm installs into a directory of its own, renamed into place when
	// complete: a test run killed half-way, or two at once, leave no
	// half-installed package behind.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".node-openai-*")
	require.NoError(t, err)
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", tmp, "openai@"+nodeOpenAIVersion)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("npm install openai@%s took over 3m: %s", nodeOpenAIVersion, out)
	}
	if err != nil {
		t.Fatalf("npm install openai@%s failed (%v): %s", nodeOpenAIVersion, err, out)
	}
	if !nodeOpenAIInstalled(tmp) {
		t.Fatalf("npm install openai@%s left no node_modules/openai of that version in %s: %s", nodeOpenAIVersion, tmp, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if nodeOpenAIInstalled(dir) { // another run installed it first
			return dir
		}
		require.NoError(t, os.RemoveAll(dir), "a broken install in the cache")
		require.NoError(t, os.Rename(tmp, dir))
	}
	return dir
}

func nodeOpenAIInstalled(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "openai", "package.json"))
	if err != nil {
		return false
	}
	var pkg struct{ Version string }
	return json.Unmarshal(b, &pkg) == nil && pkg.Version == nodeOpenAIVersion
}

// nodeScript is testdata/nodeclient/NAME copied into a directory of the
// test beside a node_modules that links to the installed package: Node
// resolves an ES module's imports from the file's own directory.
func nodeScript(t *testing.T, pkgDir, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "nodeclient", name))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(pkgDir, "node_modules"), filepath.Join(dir, "node_modules")))
	script := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(script, src, 0o644))
	return script
}

// runNode runs the script against baseURL and reads its lines.
func runNode(t *testing.T, script, baseURL, q string) []nodeCall {
	t.Helper()
	calls, out, err := execNode(script, baseURL, q)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("node: %s", out)
	return calls
}

// execNode runs a script with args and reads its lines; out is what it
// printed. It makes no assertion, so that a test's other goroutines may
// call it.
func execNode(script string, args ...string) (calls []nodeCall, out string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return nil, "", fmt.Errorf("node %s took over 2m: %s%s", filepath.Base(script), stdout.String(), stderr.String())
	case errors.As(err, &exit):
		return nil, "", fmt.Errorf("node %s failed (%w): %s%s", filepath.Base(script), err, stdout.String(), stderr.String())
	case err != nil:
		return nil, "", fmt.Errorf("node %s: %w", filepath.Base(script), err)
	}
	out = strings.TrimSpace(stdout.String())
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c nodeCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, out, fmt.Errorf("a line of node %s: %w: %s", filepath.Base(script), err, sc.Text())
		}
		calls = append(calls, c)
	}
	return calls, out, nil
}
