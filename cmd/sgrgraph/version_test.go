package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadVersion(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: modulePath, Version: "v0.0.0-20260101120000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	tests := []struct {
		name            string
		info            *debug.BuildInfo
		ok              bool
		ldVer, ldCommit string
		want            string
	}{
		{"a build in a checkout", stamped, true, "", "",
			"v0.0.0-20260101120000-0123456789ab+dirty, commit 0123456789abcdef0123456789abcdef01234567 (modified), go1.26.8"},
		{"-buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "(devel)"}}, true, "", "",
			"(devel), commit unknown, go1.26.8"},
		{"no build info", nil, false, "", "",
			"(devel), commit unknown, " + runtime.Version()},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v0.3.0"}}, true, "", "",
			"v0.3.0, commit unknown, go1.26.8"},
		{"the linker's values win", stamped, true, "v0.3.0", "fedcba98",
			"v0.3.0, commit fedcba98, go1.26.8"},
		{"built from another module", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main: debug.Module{Path: "example.com/outside", Version: "(devel)"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.2.0"}}}, true, "", "",
			"v0.2.0, commit unknown, go1.26.8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, readVersion(tc.info, tc.ok, tc.ldVer, tc.ldCommit).String())
		})
	}
}

func TestVersionCommandAndFlag(t *testing.T) {
	want := "sgrgraph " + currentVersion().String() + "\n"
	assert.Contains(t, want, ", commit ")
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, _, err := run(t, args...)
		require.NoError(t, err, args)
		assert.Equal(t, want, out, args)
	}
	// version reads no configuration: a missing file does not stop it.
	out, _, err := run(t, "version", "--config", "/nonexistent/sgrgraph.yaml")
	require.NoError(t, err)
	assert.Equal(t, want, out)
	_, _, err = run(t, "version", "extra")
	assert.Error(t, err)
}
