package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamGraph is START → outer → inner (a subgraph: talk) → END.
func streamGraph(t *testing.T) *Runnable[*state] {
	talk := func(ctx context.Context, s *state) (*state, error) {
		EmitMessage(ctx, "hel")
		EmitMessage(ctx, "lo")
		Emit(ctx, map[string]int{"progress": 1})
		s.Owner = "talked"
		return s, nil
	}
	sub, err := New[*state]("inner").AddNode("talk", talk).AddEdge(START, "talk").AddEdge("talk", END).
		Compile(context.Background())
	require.NoError(t, err)
	r, err := New[*state]("outer").AddNode("first", visit("first")).AddNode("inner", Subgraph(sub)).
		AddEdge(START, "first").AddEdge("first", "inner").AddEdge("inner", END).Compile(context.Background())
	require.NoError(t, err)
	return r
}

// transcript renders a stream as one line per event.
func transcript(t *testing.T, r *Runnable[*state], modes ...StreamMode) string {
	var lines []string
	for c, err := range r.Stream(context.Background(), &state{}, WithStreamModes(modes...)) {
		require.NoError(t, err)
		line := fmt.Sprintf("%s %s", c.Mode, c.Path)
		switch c.Mode {
		case StreamValues, StreamEnd:
			line += fmt.Sprintf(" path=%v owner=%q", c.State.Path, c.State.Owner)
		case StreamUpdates:
			line += " " + strings.Join(sortedKeys(c.Update), ",")
		case StreamMessages:
			line += fmt.Sprintf(" %v", c.Message)
		case StreamCustom:
			line += fmt.Sprintf(" %v", c.Custom)
		case StreamDebug:
			line += fmt.Sprintf(" %s attempt %d err=%q", c.Debug.Event, c.Debug.Attempt, c.Debug.Error)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func TestStreamModes(t *testing.T) {
	r := streamGraph(t)
	for _, tc := range []struct {
		mode StreamMode
		want string
	}{
		{StreamValues, `values  path=[first] owner=""
values inner path=[first] owner="talked"
values  path=[first] owner="talked"
end  path=[first] owner="talked"`},
		{StreamUpdates, `updates first Path
updates inner/talk Owner
updates inner Owner
end  path=[first] owner="talked"`},
		{StreamMessages, `messages inner/talk hel
messages inner/talk lo
end  path=[first] owner="talked"`},
		{StreamCustom, `custom inner/talk map[progress:1]
end  path=[first] owner="talked"`},
		{StreamDebug, `debug first start attempt 1 err=""
debug first end attempt 1 err=""
debug inner start attempt 1 err=""
debug inner/talk start attempt 1 err=""
debug inner/talk end attempt 1 err=""
debug inner end attempt 1 err=""
end  path=[first] owner="talked"`},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			assert.Equal(t, tc.want, transcript(t, r, tc.mode))
		})
	}
}

func TestStreamEndsWithTheError(t *testing.T) {
	boom := func(context.Context, *state) (*state, error) { return nil, errors.New("boom") }
	r, err := New[*state]("e").AddNode("boom", boom).AddEdge(START, "boom").AddEdge("boom", END).Compile(context.Background())
	require.NoError(t, err)
	var last error
	n := 0
	for _, err := range r.Stream(context.Background(), &state{}, WithStreamModes(StreamDebug)) {
		n++
		last = err
	}
	require.ErrorContains(t, last, "boom")
	assert.Equal(t, 3, n, "start, end, the error")
}

func TestStreamStopsEarly(t *testing.T) {
	r := streamGraph(t)
	for range r.Stream(context.Background(), &state{}, WithStreamModes(StreamDebug)) {
		break // the run is cancelled and its goroutine ends; -race and the test's end would show a leak
	}
}
