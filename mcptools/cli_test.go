package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest/servers"
)

// sgrgraph ask with tools.mcp: a second sgrgraph, serving a folder of
// policies over MCP, is the policy source of an offline turn over the
// documentation. Its ask tool is called with the turn's search queries,
// its answers are policy evidence, and with two kinds of source asked of
// a QUALITY answer the turn passes on them.
func TestAskWithToolsMCP(t *testing.T) {
	bin := servers.Sgrgraph(t)
	policies, err := filepath.Abs(filepath.Join("testdata", "policies"))
	require.NoError(t, err)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sgrgraph.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`
guardian:
  quality_min_sources: 2
tools:
  mcp:
    - name: policies
      source: policy
      command: %q
      args: [mcp, --kb, %q, --cache-dir, %q]
      allow: [ask]
      timeout: 20s
`, bin, policies, filepath.Join(dir, "policies-index"))), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "ask", "--config", cfg, "--cache-dir", docsCache, "--json", question)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "sgrgraph ask: %s", stderr.String())
	var res contracts.StructuredResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res), stdout.String())
	var policy []contracts.EvidenceItem
	for _, e := range res.Evidence {
		if e.Source == contracts.SourcePolicy {
			policy = append(policy, e)
		}
	}
	require.NotEmpty(t, policy, "no policy evidence: %s", stdout.String())
	assert.Equal(t, "policies__ask", policy[0].Tool)
	assert.Contains(t, stdout.String(), "security team approves every change", "the policy server's answer is the evidence")
	require.NotNil(t, res.Verdict)
	assert.Equal(t, contracts.VerdictPass, res.Verdict.Verdict, "%v", res.Verdict.Reasons)
	t.Logf("policy evidence: %+v", policy)
}
