package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ask with a model server that refuses connections, or accepts them and
// never answers: one message naming the host, the setting to change and
// doctor, an error (exit 1), within the configured timeout, and no answer.
func TestAskSaysOnceThatTheModelFailed(t *testing.T) {
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refusedAddr := refused.Addr().String()
	refused.Close()
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { hang.Close() })
	go func() { // accepts, reads nothing, answers nothing
		var held []net.Conn
		for {
			c, err := hang.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("model:\n  timeout: 2s\n  retry: {attempts: 2, base_delay: 10ms, max_delay: 50ms}\n"), 0o644))
	tests := []struct {
		name, addr string
		setting    string
	}{
		{"refused", refusedAddr, "model.base_url"},
		{"hung", hang.Addr().String(), "model.timeout (2s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			out, stderr, err := run(t, "--config", cfg, "ask", "--provider", "openai", "--base-url", "http://"+tc.addr+"/v1", "--model", "m",
				"--cache-dir", docsCache, "How do I configure the safety guard?")
			require.Error(t, err)
			assert.Less(t, time.Since(start), 10*time.Second, "within the configured timeout, once")
			msg := err.Error()
			assert.Contains(t, msg, "the model at "+tc.addr)
			assert.Contains(t, msg, tc.setting)
			assert.Contains(t, msg, "sgrgraph doctor")
			assert.Contains(t, msg, "during sgr_plan", "the planning call ended the turn")
			assert.Empty(t, strings.TrimSpace(out), "no answer, no apology printed as one")
			assert.NotContains(t, stderr, "try 1", "retries go to the log at info, not to the screen")
		})
	}
}
