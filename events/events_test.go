package events_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/cloudwego/eino/callbacks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

func TestEmitNamesTheNode(t *testing.T) {
	var got []contracts.Event
	ctx := events.WithNode(events.WithSink(context.Background(), func(ev contracts.Event) { got = append(got, ev) }), "sgr_plan")
	events.Emit(ctx, contracts.Event{Kind: contracts.EventUI})
	events.Emit(ctx, contracts.Event{Kind: contracts.EventUI, Node: "other"})
	events.Emit(context.Background(), contracts.Event{Kind: contracts.EventUI}) // no sink: nothing happens
	require.Len(t, got, 2)
	assert.Equal(t, "sgr_plan", got[0].Node)
	assert.Equal(t, "other", got[1].Node)
}

func TestTokenCallbacks(t *testing.T) {
	var mu sync.Mutex
	var tokens []string
	sink := func(ev contracts.Event) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Kind == contracts.EventToken {
			tokens = append(tokens, ev.Node+":"+ev.Text)
		}
	}
	ctx := events.WithNode(events.WithSink(context.Background(), sink), "agent_model")
	ctx = callbacks.InitCallbacks(ctx, &callbacks.RunInfo{}, events.TokenCallbacks())
	m := sgrtest.NewScriptedModel(sgrtest.Chunks("Hel", "lo"))
	sr, err := m.Stream(ctx, nil)
	require.NoError(t, err)
	var text string
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		text += c.Content
	}
	assert.Equal(t, "Hello", text, "the caller still gets the whole stream")
	assert.Equal(t, []string{"agent_model:Hel", "agent_model:lo"}, tokens, "tokens are reported before Stream returns")
}
