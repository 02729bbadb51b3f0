package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookHostsFromConfig: serve and worker read serve.webhook_hosts and
// refuse an entry that is no host, address or prefix, naming the key,
// before they listen or work.
func TestWebhookHostsFromConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "sgrgraph.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("serve:\n  webhook_hosts: [\"10.0.0.0/99\"]\n"), 0o600))
	for _, args := range [][]string{
		{"--config", cfg, "serve", "--addr", "127.0.0.1:0", "--store", filepath.Join(t.TempDir(), "t.db")},
		{"--config", cfg, "worker", "--queue", "redis://127.0.0.1:1/0"},
	} {
		_, _, err := run(t, args...)
		require.Error(t, err, "%v", args)
		assert.Contains(t, err.Error(), "serve.webhook_hosts", "%v", args)
	}
}
