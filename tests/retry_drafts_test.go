package tests

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/nodes"
)

// TestNoTwoIdenticalDraftsInARow runs the on-topic questions of each test
// knowledge base through whole turns of the offline engine: whatever the
// Guardian asks on a retry, the engine's next draft differs from its last.
func TestNoTwoIdenticalDraftsInARow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ kb, questions string }{
		{"outdoor", "ontopic_outdoor"}, {"bank", "ontopic_bank"}, {"", "ontopic_docs"},
	} {
		t.Run(c.questions, func(t *testing.T) {
			a := newAgent(t, agent.Options{}, func(cfg *config.Config) {
				if c.kb != "" {
					cfg.KB.Dir = filepath.Join("testdata/kbs", c.kb)
				}
			})
			turns, retried := 0, 0
			for i, l := range readLines(t, filepath.Join("testdata/offtopic", c.questions+".jsonl")) {
				s, err := a.RunState(context.Background(), agent.Turn{SessionID: fmt.Sprint(c.questions, i), Message: l.Text})
				require.NoError(t, err)
				turns++
				if s.RetryCount > 0 {
					retried++
				}
				ds := drafts(s.Messages)
				for j := 1; j < len(ds); j++ {
					assert.NotEqual(t, ds[j-1], ds[j], "%q: draft %d repeats draft %d", l.Text, j+1, j)
				}
			}
			t.Logf("%d turns, %d with a retry", turns, retried)
		})
	}
}

// drafts are the agent's answers of the last turn, in order.
func drafts(ms []*schema.Message) []string {
	start := 0
	for i, m := range ms {
		if m.Role == schema.User && !strings.HasPrefix(m.Content, nodes.ReviewMarker) {
			start = i
		}
	}
	var out []string
	for _, m := range ms[start:] {
		if m.Role == schema.Assistant && len(m.ToolCalls) == 0 && !contracts.Synthetic(m) {
			out = append(out, m.Content)
		}
	}
	return out
}
