package studio_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/tables"
)

// post is the state of the tests' graph: a draft written on a topic, judged
// by a decision table on its length, then published (once a person says
// so) or rejected.
type post struct {
	Topic     string   `json:"topic"`
	Draft     string   `json:"draft"`
	Length    int      `json:"length"`
	Log       []string `json:"log" reduce:"append"`
	Published bool     `json:"published"`
	tables.Decisions
}

// postGraph is the tests' graph, compiled over store. hold, when set, is
// called as each node starts, so that a test can keep a run in a node.
func postGraph(t testing.TB, store checkpoint.Store, hold func(ctx context.Context, node string) error) *graph.Runnable[*post] {
	t.Helper()
	judgeTable, err := tables.New(tables.Table{ID: "DT-P", Name: "judge", Inputs: []tables.Column{{Name: "length", Type: tables.TypeNumber}},
		Outputs: []tables.Column{{Name: "next", Type: tables.TypeString}},
		Rules: []tables.Rule{{Inputs: []string{">= 20"}, Outputs: []string{"publish"}, Annotation: "long enough"},
			{Inputs: []string{"-"}, Outputs: []string{"reject"}, Annotation: "too short"}}})
	require.NoError(t, err)
	node := func(name string, body func(ctx context.Context, s *post) error) graph.NodeFunc[*post] {
		return func(ctx context.Context, s *post) (*post, error) {
			if hold != nil {
				if err := hold(ctx, name); err != nil {
					return s, err
				}
			}
			s.Log = append(s.Log, name)
			return s, body(ctx, s)
		}
	}
	g, err := graph.New[*post]("post").
		AddNode("write", node("write", func(_ context.Context, s *post) error {
			s.Draft = "a draft about " + s.Topic
			return nil
		})).
		AddNode("judge", node("judge", func(_ context.Context, s *post) error {
			s.Length = len(s.Draft)
			res, err := judgeTable.Evaluate(map[string]any{"length": s.Length})
			s.Record(res)
			return err
		})).
		AddNode("publish", node("publish", func(ctx context.Context, s *post) error {
			ok, err := graph.Interrupt[bool](ctx, fmt.Sprintf("publish %q?", s.Draft))
			s.Published = ok
			return err
		})).
		AddNode("reject", node("reject", func(context.Context, *post) error { return nil })).
		AddEdge(graph.START, "write").
		AddEdge("write", "judge").
		AddConditionalEdges("judge", graph.ByTable[*post](judgeTable, "next"), map[string]string{"publish": "publish", "reject": "reject"}).
		AddEdge("publish", graph.END).
		AddEdge("reject", graph.END).
		Compile(context.Background(), graph.WithCheckpointer(store))
	require.NoError(t, err)
	return g
}
