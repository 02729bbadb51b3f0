package servers

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// chromiumPaths are where the distribution's chromium package puts the
// browser, then the names it may have on PATH.
var chromiumPaths = []string{"/usr/bin/chromium", "chromium", "chromium-browser"}

// Chromium returns the path of a Chromium browser for tests that drive
// one headless (the web chat's), or fails the test saying how to install
// it. Unlike Redis and Postgres it is not started here: the driver starts
// it with the flags it needs.
func Chromium(tb testing.TB) string {
	tb.Helper()
	path, tried := findChromium(chromiumPaths)
	if path == "" {
		tb.Fatalf("servers: chromium not found (tried %s); install it with: apt-get install -y chromium", strings.Join(tried, ", "))
	}
	return path
}

// findChromium is the first of paths that is an executable file, an
// absolute path as it is, a bare name looked up on PATH.
func findChromium(paths []string) (found string, tried []string) {
	for _, p := range paths {
		tried = append(tried, p)
		if !strings.ContainsRune(p, os.PathSeparator) {
			if path, err := exec.LookPath(p); err == nil {
				return path, tried
			}
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, tried
		}
	}
	return "", tried
}
