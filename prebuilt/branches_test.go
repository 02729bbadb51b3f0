package prebuilt_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/prebuilt"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// meetTool answers "met" when another call of it is running at the same
// time, and "alone" when none comes within a second: two calls answer
// "met" only when they run in parallel.
func meetTool(t *testing.T) tool.InvokableTool {
	t.Helper()
	var mu sync.Mutex
	arrived := 0
	both := make(chan struct{})
	mt, err := prebuilt.NewTool("meet", "Waits for another call.", func(_ context.Context, in cityArgs) (string, error) {
		mu.Lock()
		arrived++
		if arrived == 2 {
			close(both)
		}
		mu.Unlock()
		select {
		case <-both:
			return "met in " + in.City, nil
		case <-time.After(time.Second):
			return "alone in " + in.City, nil
		}
	})
	require.NoError(t, err)
	return mt
}

func cityCall(name, city string) schema.ToolCall {
	return schema.ToolCall{Function: schema.FunctionCall{Name: name, Arguments: `{"city":"` + city + `"}`}}
}

func TestAgentToolCallBranches(t *testing.T) {
	ctx := context.Background()
	two := sgrtest.ToolCalls(cityCall("meet", "Oslo"), cityCall("meet", "Rome"))
	for _, tc := range []struct {
		name    string
		opts    []prebuilt.AgentOption[*chat]
		replies []sgrtest.Reply
		want    []string // the conversation after the run
		nodes   []string // the nodes that ran, by their stream updates
		notes   []string
		err     string
	}{
		{name: "each call runs in a branch of its own, in parallel, and answers in call order",
			opts:    []prebuilt.AgentOption[*chat]{prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{})},
			replies: []sgrtest.Reply{two, sgrtest.Text("Both.")},
			want:    []string{"user: go", "assistant meet meet", "tool meet: met in Oslo", "tool meet: met in Rome", "assistant: Both."},
			nodes:   []string{"agent", "call_tool", "call_tool", "tools", "agent"}},
		{name: "one call runs on the state itself",
			opts:    []prebuilt.AgentOption[*chat]{prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{})},
			replies: []sgrtest.Reply{sgrtest.ToolCall("forecast", `{"city":"Oslo"}`), sgrtest.Text("Sunny.")},
			want:    []string{"user: go", "assistant forecast", "tool forecast: sunny in Oslo, 21°C", "assistant: Sunny."},
			nodes:   []string{"agent", "call_tool", "tools", "agent"}},
		{name: "named nodes",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithNodeNames[*chat]("think", "gather"),
				prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{Name: "fetch"})},
			replies: []sgrtest.Reply{two, sgrtest.Text("Both.")},
			nodes:   []string{"think", "fetch", "fetch", "gather", "think"}},
		{name: "a split and a call node of one's own",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{
				Split: func(s *chat, c schema.ToolCall) *chat {
					b := *s
					b.User = c.ID
					return &b
				},
				Node: func(_ context.Context, s *chat) (*chat, error) {
					s.Messages = append(s.Messages, schema.ToolMessage("answered in the branch of "+s.User, s.User))
					return s, nil
				}})},
			replies: []sgrtest.Reply{sgrtest.ToolCalls(schema.ToolCall{ID: "a", Function: schema.FunctionCall{Name: "meet"}},
				schema.ToolCall{ID: "b", Function: schema.FunctionCall{Name: "meet"}}), sgrtest.Text("Done.")},
			want: []string{"user: go", "assistant meet meet", "tool : answered in the branch of a", "tool : answered in the branch of b", "assistant: Done."}},
		{name: "a tools node of one's own reads what the branches returned",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{}),
				prebuilt.WithToolsNode(func(_ context.Context, s *chat) (*chat, error) {
					for _, m := range s.Messages {
						if m.Role == schema.Tool {
							s.Notes = append(s.Notes, m.Content)
						}
					}
					return s, nil
				})},
			replies: []sgrtest.Reply{two, sgrtest.Text("Both.")},
			notes:   []string{"met in Oslo", "met in Rome"}},
		{name: "the default join fails when a branch left its call unanswered",
			opts: []prebuilt.AgentOption[*chat]{prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{
				Node: func(_ context.Context, s *chat) (*chat, error) { return s, nil }})},
			replies: []sgrtest.Reply{two},
			err:     "tool calls without an answer after their branches: meet (call_1_0), meet (call_1_1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sgrtest.NewScriptedModel(tc.replies...)
			r, err := prebuilt.NewAgent[*chat](ctx, m, []tool.BaseTool{forecastTool(t), meetTool(t)}, tc.opts...)
			require.NoError(t, err)
			var ran []string
			var out *chat
			for c, err := range r.Stream(ctx, user("go"), graph.WithStreamModes(graph.StreamUpdates)) {
				if tc.err != "" && err != nil {
					assert.ErrorContains(t, err, tc.err)
					return
				}
				require.NoError(t, err)
				switch c.Mode {
				case graph.StreamUpdates:
					ran = append(ran, c.Path)
				case graph.StreamEnd:
					out = c.State
				}
			}
			require.Empty(t, tc.err, "the run should have failed")
			require.NotNil(t, out)
			if tc.want != nil {
				assert.Equal(t, tc.want, roles(out.Messages))
			}
			if tc.nodes != nil {
				assert.Equal(t, tc.nodes, ran)
			}
			assert.Equal(t, tc.notes, out.Notes)
		})
	}
}

// TestAgentBranchesOptionTwice builds two agents from one option value:
// each runs its own tools.
func TestAgentBranchesOptionTwice(t *testing.T) {
	ctx := context.Background()
	branches := prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{})
	_, err := prebuilt.NewAgent[*chat](ctx, sgrtest.NewScriptedModel(), []tool.BaseTool{meetTool(t)}, branches)
	require.NoError(t, err)
	m := sgrtest.NewScriptedModel(sgrtest.ToolCalls(cityCall("forecast", "Oslo"), cityCall("forecast", "Rome")), sgrtest.Text("Sunny."))
	r, err := prebuilt.NewAgent[*chat](ctx, m, []tool.BaseTool{forecastTool(t)}, branches)
	require.NoError(t, err)
	out, err := r.Invoke(ctx, user("go"))
	require.NoError(t, err)
	assert.Equal(t, []string{"user: go", "assistant forecast forecast", "tool forecast: sunny in Oslo, 21°C", "tool forecast: sunny in Rome, 21°C",
		"assistant: Sunny."}, roles(out.Messages))
}

func TestAgentModelNode(t *testing.T) {
	ctx := context.Background()
	calls := 0
	// A model step of one's own: it asks for the forecast once, then answers.
	step := func(_ context.Context, s *chat) (*chat, error) {
		calls++
		reply := schema.AssistantMessage("Sunny.", nil)
		if calls == 1 {
			reply = schema.AssistantMessage("", []schema.ToolCall{call("1", "forecast", `{"city":"Oslo"}`)})
		}
		s.Messages = append(s.Messages, reply)
		return s, nil
	}
	r, err := prebuilt.NewAgent[*chat](ctx, nil, []tool.BaseTool{forecastTool(t)}, prebuilt.WithModelNode(step))
	require.NoError(t, err)
	out, err := r.Invoke(ctx, user("weather?"))
	require.NoError(t, err)
	assert.Equal(t, []string{"user: weather?", "assistant forecast", "tool forecast: sunny in Oslo, 21°C", "assistant: Sunny."}, roles(out.Messages))
	assert.Equal(t, 2, calls)
}

func TestAgentBranchesDiagram(t *testing.T) {
	r, err := prebuilt.NewAgent[*chat](context.Background(), sgrtest.NewScriptedModel(), nil,
		prebuilt.WithNodeNames[*chat]("agent_model", "agent_tools"), prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{}))
	require.NoError(t, err)
	assert.Equal(t, `flowchart TD
  START --> agent_model
  call_tool --> agent_tools
  agent_tools --> agent_model
  agent_model -. "send answer" .-> END
  agent_model -. "send call_tool" .-> call_tool
`, r.Mermaid())
}

func TestAgentRefusesNodes(t *testing.T) {
	ctx := context.Background()
	m := sgrtest.NewScriptedModel()
	step := func(_ context.Context, s *chat) (*chat, error) { return s, nil }
	branches := prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[*chat]{})
	for _, tc := range []struct {
		name  string
		model *sgrtest.ScriptedModel
		opts  []prebuilt.AgentOption[*chat]
		want  string
	}{
		{"an empty name", m, []prebuilt.AgentOption[*chat]{prebuilt.WithNodeNames[*chat]("", "tools")}, "a node name is empty"},
		{"two nodes of one name", m, []prebuilt.AgentOption[*chat]{prebuilt.WithNodeNames[*chat]("step", "step")}, `two nodes are named "step"`},
		{"the call node named as the model", m, []prebuilt.AgentOption[*chat]{prebuilt.WithNodeNames[*chat]("call_tool", "tools"), branches},
			`two nodes are named "call_tool"`},
		{"a reserved name", m, []prebuilt.AgentOption[*chat]{prebuilt.WithNodeNames[*chat](graph.END, "tools")}, "is the graph's own"},
		{"approvals with branches", m, []prebuilt.AgentOption[*chat]{prebuilt.WithApprovalBefore[*chat]("forecast"), branches},
			"approvals ask before any call of a step runs"},
		{"structured output without a model", nil, []prebuilt.AgentOption[*chat]{prebuilt.WithModelNode(step), prebuilt.WithStructuredOutput(setAnswer)},
			"nil model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.model == nil { // a nil *ScriptedModel would be no nil model
				_, err = prebuilt.NewAgent[*chat](ctx, nil, []tool.BaseTool{forecastTool(t)}, tc.opts...)
			} else {
				_, err = prebuilt.NewAgent[*chat](ctx, tc.model, []tool.BaseTool{forecastTool(t)}, tc.opts...)
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
