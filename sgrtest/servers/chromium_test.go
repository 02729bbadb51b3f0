package servers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChromiumRuns(t *testing.T) {
	out, err := exec.Command(Chromium(t), "--version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, strings.ToLower(string(out)), "chromium")
}

func TestFindChromium(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("not a program"), 0o644))
	runnable := filepath.Join(dir, "runnable")
	require.NoError(t, os.WriteFile(runnable, []byte("#!/bin/sh\n"), 0o755))
	tests := []struct {
		name  string
		paths []string
		want  string // "" when none is found
	}{
		{"a missing file", []string{filepath.Join(dir, "missing")}, ""},
		{"a file that does not run", []string{plain}, ""},
		{"a directory", []string{dir}, ""},
		{"a name not on PATH", []string{"no-such-browser-sgrgraph"}, ""},
		{"the first that runs", []string{plain, runnable}, runnable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, tried := findChromium(tc.paths)
			assert.Equal(t, tc.want, got)
			if tc.want == "" {
				assert.Equal(t, tc.paths, tried, "a failure names every place it looked")
			}
		})
	}
}
