package tests

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/compose"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// BenchmarkOfflineTurn is a whole turn as `sgrgraph ask` runs it: the
// rules guard, the offline engine planning and answering, two searches of
// the embedded documentation, the Guardian's checks.
func BenchmarkOfflineTurn(b *testing.B) {
	a := newAgent(b, agent.Options{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := a.RunState(ctx, agent.Turn{SessionID: "bench", Message: "How do I configure the safety guard?"})
		if err != nil || s.Verdict == nil || s.Verdict.Verdict != contracts.VerdictPass {
			b.Fatalf("turn: %v", err)
		}
	}
}

// instantSearch is a test double of the index that answers at once.
type instantSearch struct{}

func (instantSearch) Search(q string, _ int) (kb.Result, error) {
	return kb.Result{Query: q, Articles: []contracts.Article{
		{KBID: "a", Title: "A", Score: 0.9, Chunks: []contracts.Chunk{{Text: "Set guard.mode."}}},
		{KBID: "b", Title: "B", Score: 0.8, Chunks: []contracts.Chunk{{Text: "DT-001 decides."}}},
	}}, nil
}

// instantAgent is the default graph with an instant scripted model and
// retriever: what is left of a turn's time is the graph's own.
func instantAgent(b *testing.B) *agent.Agent {
	m := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", planJSON("en", "How do I set the guard mode?")),
		sgrtest.ToolCall("search_kb", `{"query":"guard mode"}`),
		sgrtest.Text("Set guard.mode [1]."),
	).Repeat()
	return newAgent(b, agent.Options{Model: m, Searcher: instantSearch{}})
}

func BenchmarkDefaultGraphOverhead(b *testing.B) {
	a := instantAgent(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := a.RunState(ctx, agent.Turn{SessionID: "bench", Message: "How do I set the guard mode?"})
		if err != nil || s.Verdict.Verdict != contracts.VerdictPass {
			b.Fatalf("turn: %v", err)
		}
	}
}

// BenchmarkBareEinoGraph runs the same nodes in an eino graph of the same
// shape built by hand: plain branch functions instead of decision tables,
// tool calls one after another, no instrumentation, no events.
func BenchmarkBareEinoGraph(b *testing.B) {
	n := instantAgent(b).Nodes()
	ctx := context.Background()
	lambda := func(fn nodes.Func) *compose.Lambda { return compose.InvokableLambda(fn) }
	// The tool calls of a step, one after another, then recorded.
	toolStep := func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		n0 := len(s.Messages)
		for _, call := range nodes.SplitToolCalls(s) {
			out, err := n.CallTool(ctx, call)
			if err != nil {
				return nil, err
			}
			s.Messages = append(s.Messages, out.Messages[n0:]...)
			s.ToolResults = append(s.ToolResults, out.ToolResults...)
		}
		return n.AgentTools(ctx, s)
	}
	loop := compose.NewGraph[*contracts.ChatState, *contracts.ChatState]()
	require.NoError(b, loop.AddLambdaNode("agent_model", lambda(n.AgentModel)))
	require.NoError(b, loop.AddLambdaNode("agent_tools", lambda(toolStep)))
	require.NoError(b, loop.AddEdge(compose.START, "agent_model"))
	require.NoError(b, loop.AddBranch("agent_model", compose.NewGraphBranch(func(ctx context.Context, s *contracts.ChatState) (string, error) {
		if to, _ := nodes.AfterAgentModel(ctx, s); to == "agent_tools" {
			return "agent_tools", nil
		}
		return compose.END, nil
	}, map[string]bool{"agent_tools": true, compose.END: true})))
	require.NoError(b, loop.AddEdge("agent_tools", "agent_model"))

	g := compose.NewGraph[*contracts.ChatState, *contracts.ChatState]()
	for name, fn := range map[string]nodes.Func{"guardian_verify": n.GuardianVerify, "sgr_plan": n.SGRPlan, "inject_synthetic": n.InjectSynthetic,
		"evidence_check": n.EvidenceCheck, "contract_check": n.ContractCheck, "retry_bump": n.RetryBump, "finalize": n.Finalize, "safe_exit": n.SafeExit} {
		require.NoError(b, g.AddLambdaNode(name, lambda(fn)))
	}
	require.NoError(b, g.AddGraphNode("react_agent", loop, compose.WithGraphCompileOptions(compose.WithMaxRunSteps(100))))
	require.NoError(b, g.AddEdge(compose.START, "guardian_verify"))
	require.NoError(b, g.AddBranch("guardian_verify", compose.NewGraphBranch(func(_ context.Context, s *contracts.ChatState) (string, error) {
		if s.Action == contracts.ActionGuardianBlock {
			return "safe_exit", nil
		}
		return "sgr_plan", nil
	}, map[string]bool{"safe_exit": true, "sgr_plan": true})))
	require.NoError(b, g.AddEdge("sgr_plan", "inject_synthetic"))
	require.NoError(b, g.AddBranch("inject_synthetic", compose.NewGraphBranch(func(_ context.Context, s *contracts.ChatState) (string, error) {
		if s.Action == contracts.ActionNormal {
			return "react_agent", nil
		}
		return compose.END, nil
	}, map[string]bool{"react_agent": true, compose.END: true})))
	require.NoError(b, g.AddEdge("react_agent", "evidence_check"))
	require.NoError(b, g.AddEdge("evidence_check", "contract_check"))
	require.NoError(b, g.AddBranch("contract_check", compose.NewGraphBranch(func(_ context.Context, s *contracts.ChatState) (string, error) {
		switch s.Verdict.Verdict {
		case contracts.VerdictPass:
			return "finalize", nil
		case contracts.VerdictRetry:
			return "retry_bump", nil
		}
		return "safe_exit", nil
	}, map[string]bool{"finalize": true, "retry_bump": true, "safe_exit": true})))
	require.NoError(b, g.AddEdge("retry_bump", "react_agent"))
	require.NoError(b, g.AddEdge("finalize", compose.END))
	require.NoError(b, g.AddEdge("safe_exit", compose.END))
	r, err := g.Compile(ctx, compose.WithMaxRunSteps(100))
	require.NoError(b, err)

	b.ReportAllocs()
	for b.Loop() {
		s, err := agent.NewState(agent.Turn{SessionID: "bench", Message: "How do I set the guard mode?"})
		if err != nil {
			b.Fatal(err)
		}
		out, err := r.Invoke(ctx, s)
		if err != nil || out.Verdict.Verdict != contracts.VerdictPass {
			b.Fatalf("turn: %v", err)
		}
	}
}
