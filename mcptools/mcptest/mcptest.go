// Package mcptest gives tests real MCP servers to connect to: the
// reference servers of the npm registry, installed once into the user's
// cache directory (servers.Sgrgraph builds sgrgraph's own).
//
// A test that cannot get them fails with the reason; it does not skip.
package mcptest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Version is the release of the reference servers the tests pin.
const Version = "2026.8.31"

// The reference servers the tests connect to.
const (
	Everything = "@modelcontextprotocol/server-everything"
	Filesystem = "@modelcontextprotocol/server-filesystem"
)

// NPMServer is the command and arguments that run pkg (Everything or
// Filesystem) at Version over stdio: node and the package's script, from
// an npm install in the user's cache directory made once and reused.
func NPMServer(t testing.TB, pkg string) (command string, args []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH (%v): the test runs the MCP reference server %s@%s, which needs Node 20 or later with npm", err, pkg, Version)
	}
	dir := install(t)
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	var meta struct {
		Bin map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(b, &meta); err != nil || len(meta.Bin) != 1 {
		t.Fatalf("%s's package.json names no single bin script (%v): %s", pkg, err, b)
	}
	for _, script := range meta.Bin {
		return node, []string{filepath.Join(dir, "node_modules", pkg, script)}
	}
	panic("unreachable")
}

// install is a directory whose node_modules holds both servers at
// Version. npm installs into a directory of its own, renamed into place
// when complete: a run killed half-way, or two at once, leave no
// half-installed package behind.
func install(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("npm is not on PATH (%v): the test installs the MCP reference servers with it", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory for the npm packages: %v", err)
	}
	dir := filepath.Join(cache, "sgrgraph-test", "mcp-servers-"+Version)
	if installed(dir) {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".mcp-servers-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", tmp, Everything+"@"+Version, Filesystem+"@"+Version)
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		t.Fatalf("npm install of the MCP reference servers @%s took over 3m: %s", Version, out)
	case err != nil:
		t.Fatalf("npm install of the MCP reference servers @%s failed (%v): %s", Version, err, out)
	case !installed(tmp):
		t.Fatalf("npm install left no %s and %s of version %s in %s: %s", Everything, Filesystem, Version, tmp, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if installed(dir) { // another run installed them first
			return dir
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Fatalf("a broken install in the cache: %v", err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func installed(dir string) bool {
	for _, pkg := range []string{Everything, Filesystem} {
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
		if err != nil {
			return false
		}
		var meta struct{ Version string }
		if json.Unmarshal(b, &meta) != nil || meta.Version != Version {
			return false
		}
	}
	return true
}
