package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// search shows the knowledge base as the agent's results and MCP's
// search_kb do: masked by default, as found with output.unmasked_evidence,
// in its text and its JSON output alike.
func TestSearchMasksAsTheOutputSettingsSay(t *testing.T) {
	dir := sgrtest.ContactKB(t)
	cache := filepath.Join(t.TempDir(), "cache")
	masked := []string{"su***************om", "+1***********00"}
	unmasked := []string{"support@example.com", "+1 415 555 0100"}
	for _, tc := range []struct {
		name    string
		config  string // the configuration file's text; empty: no file
		json    bool
		want    []string
		wantNot []string
	}{
		{"masked by default", "", false, masked, unmasked},
		{"masked by default, JSON", "", true, masked, unmasked},
		{"masked when the setting is off", "output:\n  unmasked_evidence: false\n", false, masked, unmasked},
		{"unmasked evidence", "output:\n  unmasked_evidence: true\n", false, unmasked, masked},
		{"unmasked evidence, JSON", "output:\n  unmasked_evidence: true\n", true, unmasked, masked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if tc.config != "" {
				cfg := filepath.Join(t.TempDir(), "c.yaml")
				require.NoError(t, os.WriteFile(cfg, []byte(tc.config), 0o600))
				args = append(args, "--config", cfg)
			}
			args = append(args, "search", "--kb", dir, "--cache-dir", cache)
			if tc.json {
				args = append(args, "--json")
			}
			out, _, err := run(t, append(args, "contact support refunds")...)
			require.NoError(t, err)
			assert.Contains(t, out, "contact")
			for _, s := range tc.want {
				assert.Contains(t, out, s)
			}
			for _, s := range tc.wantNot {
				assert.NotContains(t, out, s)
			}
		})
	}
}
