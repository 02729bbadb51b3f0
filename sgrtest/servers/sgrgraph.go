package servers

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Sgrgraph builds the command line of this module into a temporary folder
// and returns its path, for tests that run it as a process (a server, an
// MCP server, a command a signal stops).
//
// It is built as the test binary was: with -race when the tests run with
// -race. The packages are then those go test has just compiled, and on an
// empty build cache the build links rather than compiling every
// dependency a second time without the race detector.
func Sgrgraph(tb testing.TB) string {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Fatalf("servers: building the sgrgraph command needs the go tool on PATH: %v", err)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(tb.TempDir(), "sgrgraph")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := []string{"build", "-o", bin}
	if raceBuild {
		args = append(args, "-race")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, append(args, "./cmd/sgrgraph")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("servers: go %s ./cmd/sgrgraph: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return bin
}
