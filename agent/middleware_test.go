package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
)

func TestInstrumentRecordsTheAttempt(t *testing.T) {
	tries := 0
	flaky := func(_ context.Context, s State) (State, error) {
		if tries++; tries < 3 {
			return nil, errors.New("not yet")
		}
		return s, nil
	}
	steady := func(_ context.Context, s State) (State, error) { return s, nil }
	r, err := graph.New[State]("attempts").
		AddNode("flaky", flaky, graph.WithRetry(graph.RetryPolicy{MaxAttempts: 3, InitialInterval: time.Millisecond})).
		AddNode("steady", steady).
		AddEdge(graph.START, "flaky").AddEdge("flaky", "steady").AddEdge("steady", graph.END).
		Compile(context.Background(), graph.WithMiddleware(instrument))
	require.NoError(t, err)
	s, err := r.Invoke(context.Background(), &contracts.ChatState{SessionID: "s", Turn: 1})
	require.NoError(t, err)
	require.Len(t, s.Diagnostics.Nodes, 2)
	assert.Equal(t, contracts.NodeRun{Node: "flaky", DurationMS: s.Diagnostics.Nodes[0].DurationMS, Attempt: 3}, s.Diagnostics.Nodes[0])
	assert.Zero(t, s.Diagnostics.Nodes[1].Attempt, "a node that ran once says nothing of attempts")
}
