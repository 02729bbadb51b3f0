package servers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChromiumLeavesNothing starts a browser from ChromiumOptions in a
// subtest, as the browser tests do: once the subtest has ended, no process
// of the browser runs and its folder (profile and TMPDIR) is gone.
func TestChromiumLeavesNothing(t *testing.T) {
	var folder string
	var group int
	t.Run("browse", func(t *testing.T) {
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), ChromiumOptions(t)...)
		defer cancelAlloc()
		ctx, cancel := chromedp.NewContext(alloc)
		defer cancel()
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("about:blank")))
		group = chromedp.FromContext(ctx).Browser.Process().Pid
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", group))
		require.NoError(t, err)
		folder = filepath.Dir(t.TempDir()) // the test's own, where ChromiumOptions made its folder
		var profile string
		for arg := range strings.SplitSeq(string(cmdline), "\x00") {
			if dir, ok := strings.CutPrefix(arg, "--user-data-dir="); ok {
				profile = dir
			}
		}
		assert.True(t, strings.HasPrefix(profile, folder+string(filepath.Separator)), "the profile %q is in the test's folder %s", profile, folder)
		running, err := runningInGroup(group)
		require.NoError(t, err)
		assert.Greater(t, len(running), 1, "the browser's helper processes share its group")
	})
	running, err := runningInGroup(group)
	require.NoError(t, err)
	assert.Empty(t, running, "processes of the browser still run")
	_, err = os.Stat(folder)
	assert.True(t, os.IsNotExist(err), "%s is left: %v", folder, err)
}

func TestBrowserGroupStopWaits(t *testing.T) {
	var g browserGroup
	cmd := exec.Command("sh", "-c", "sleep 60 & sleep 60 & wait")
	g.prepare(cmd)
	require.NoError(t, cmd.Start())
	go func() { _ = cmd.Wait() }() // reaps the leader; its children are left to whoever reaps orphans
	require.Eventually(t, func() bool {
		running, err := runningInGroup(cmd.Process.Pid)
		return err == nil && len(running) == 3
	}, 10*time.Second, 10*time.Millisecond, "the shell and its two children in one group")
	require.NoError(t, g.stop(10*time.Second))
	running, err := runningInGroup(cmd.Process.Pid)
	require.NoError(t, err)
	assert.Empty(t, running)
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		stat  string
		state byte
		pgrp  int
		ok    bool
	}{
		{"14158 (chromium) S 14136 14132 28590 0 -1", 'S', 14132, true},
		{"7 (a (weird) name) Z 1 7 7 0", 'Z', 7, true},
		{"7 (no end", 0, 0, false},
		{"7 (short) R 1", 0, 0, false},
		{"7 (bad) R 1 x", 0, 0, false},
	} {
		state, pgrp, ok := parseStat([]byte(tc.stat))
		assert.Equal(t, tc.ok, ok, tc.stat)
		assert.Equal(t, tc.state, state, tc.stat)
		assert.Equal(t, tc.pgrp, pgrp, tc.stat)
	}
}
