package graph

import (
	"context"
	"encoding/json"
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

// logged is a nested struct the reducers merge field by field.
type logged struct {
	Lines []string `json:"lines" reduce:"append"`
	Level string   `json:"level"`
}

// updated is a state with a field of each kind the updates stream tells
// apart.
type updated struct {
	Items []string `json:"items" reduce:"append"`
	Tags  []string `json:"tags"`
	Note  string   `json:"note,omitempty"`
	Log   logged   `json:"log"`
}

// TestUpdatesCarryOnlyWhatChanged: an update holds the items a node
// appended, not the whole list again (before, every event repeated every
// append field in full), and other fields only when they changed.
func TestUpdatesCarryOnlyWhatChanged(t *testing.T) {
	for _, tc := range []struct {
		name      string
		node      func(s *updated)
		update    string
		overwrite []string
		start     func(s *updated) // changes the state the run starts with
	}{
		{"appended items only", func(s *updated) { s.Items = append(s.Items, "c", "d") }, `{"items":["c","d"]}`, nil, nil},
		{"nothing changed", func(*updated) {}, `{}`, nil, nil},
		{"nil to empty appends nothing", func(s *updated) { s.Log.Lines = []string{} }, `{}`, nil, func(s *updated) { s.Log.Lines = nil }},
		{"another list whole", func(s *updated) { s.Tags = append(s.Tags, "y") }, `{"tags":["x","y"]}`, nil, nil},
		{"a changed value", func(s *updated) { s.Note = "m" }, `{"note":"m"}`, nil, nil},
		{"a field gone", func(s *updated) { s.Note = "" }, `{"note":null}`, nil, nil},
		{"appended to a nested list", func(s *updated) { s.Log.Lines = append(s.Log.Lines, "l2") }, `{"log":{"lines":["l2"]}}`, nil, nil},
		{"a nested value", func(s *updated) { s.Log.Level = "debug" }, `{"log":{"level":"debug"}}`, nil, nil},
		{"an append field rewritten", func(s *updated) { s.Items = []string{"z"} }, `{"items":["z"]}`, []string{"items"}, nil},
		{"a nested append field emptied", func(s *updated) { s.Log.Lines = nil }, `{"log":{"lines":null}}`, []string{"log.lines"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := func(_ context.Context, s *updated) (*updated, error) { tc.node(s); return s, nil }
			r, err := New[*updated]("u").AddNode("n", node).AddEdge(START, "n").AddEdge("n", END).Compile(context.Background())
			require.NoError(t, err)
			in := &updated{Items: []string{"a", "b"}, Tags: []string{"x"}, Note: "n", Log: logged{Lines: []string{"l1"}, Level: "info"}}
			if tc.start != nil {
				tc.start(in)
			}
			var updates []Chunk[*updated]
			for c, err := range r.Stream(context.Background(), in, WithStreamModes(StreamUpdates)) {
				require.NoError(t, err)
				if c.Mode == StreamUpdates {
					updates = append(updates, c)
				}
			}
			require.Len(t, updates, 1)
			got, err := json.Marshal(updates[0].Update)
			require.NoError(t, err)
			assert.JSONEq(t, tc.update, string(got))
			assert.Equal(t, tc.overwrite, updates[0].Overwrite)
		})
	}
}

// TestUpdatesFollowJSONNames: the shape of the updates follows
// encoding/json: renamed, skipped and embedded fields.
func TestUpdatesFollowJSONNames(t *testing.T) {
	type Embedded struct {
		Seen []int `json:"seen" reduce:"append"`
	}
	type shaped struct {
		Embedded
		Renamed []int `json:"r" reduce:"append"`
		Skipped []int `json:"-" reduce:"append"`
		Plain   []int `reduce:"append"`
	}
	sh := shapeFor[*shaped]()
	before := []byte(`{"seen":[1],"r":[1],"Plain":[1]}`)
	after := []byte(`{"seen":[1,2],"r":[1,2],"Plain":[1,2]}`)
	update, overwrite := sh.changes(before, after)
	got, err := json.Marshal(update)
	require.NoError(t, err)
	assert.JSONEq(t, `{"seen":[2],"r":[2],"Plain":[2]}`, string(got))
	assert.Empty(t, overwrite)
}
