package servers

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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

// ChromiumOptions are the options to start Chromium headless with from
// chromedp (its defaults and the path Chromium gives), with a folder of the
// test's own (tb.TempDir) for what Chromium writes:
//
//   - its profile: left to chromedp it is a chromedp-runner* folder in the
//     test process's temporary folder, which chromedp removes 10 ms after
//     the browser's first process ends, while the processes it started
//     (GPU, network, storage, renderers) may still write there; the
//     removal may then fail, silently, and the folder stay in /tmp;
//   - its TMPDIR, where it makes the folder of its single-instance socket
//     (org.chromium.Chromium.*) and, killed at the end of a test, never
//     removes it.
//
// Chromium runs in a process group of its own. When the test ends, after
// the test has stopped the browser, every process of the group is killed
// and waited for, so that none writes into the folder as it is removed.
func ChromiumOptions(tb testing.TB) []chromedp.ExecAllocatorOption {
	tb.Helper()
	path := Chromium(tb)
	tmp := tb.TempDir() // removed after the cleanup below: cleanups run last first
	var group browserGroup
	tb.Cleanup(func() {
		if err := group.stop(browserExit); err != nil {
			tb.Errorf("servers: chromium: %v", err)
		}
	})
	return append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.Env("TMPDIR="+tmp), chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.ModifyCmdFunc(group.prepare))
}
