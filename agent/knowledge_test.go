package agent_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/kb"
)

// The embedded articles are read once a process, and each knowledge base
// opened gets them as if it had read them itself: all of them, and a list
// of its own, which another one's changes do not reach.
func TestEmbeddedArticlesAreEachKnowledgeBasesOwn(t *testing.T) {
	want, errs := kb.LoadFS(docs.FS, ".")
	require.Empty(t, errs)
	c := kb.Config{CacheDir: t.TempDir(), TopK: 5, RelevanceThreshold: 0.5}
	first, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer first.Close()
	assert.Equal(t, want, first.Docs)
	first.Docs[0].Title, first.Docs[0].Tags[0] = "changed", "changed"
	second, err := agent.OpenKnowledge(context.Background(), c)
	require.NoError(t, err)
	defer second.Close()
	assert.Equal(t, want, second.Docs)
	assert.Equal(t, "embedded", second.Source)
}
