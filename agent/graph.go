package agent

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
)

// State is the default graph's state.
type State = *contracts.ChatState

// Nodes are the steps of the default graph; replace any of them to change
// one step and keep the rest.
type Nodes struct {
	GuardianVerify, SGRPlan, InjectSynthetic nodes.Func
	// PolicyCheck checks the role's permissions once the plan gives the
	// request type, before any search.
	PolicyCheck                             nodes.Func
	AgentModel, CallTool, AgentTools        nodes.Func
	EvidenceCheck, ContractCheck, RetryBump nodes.Func
	Finalize, SafeExit                      nodes.Func
	// HumanReview stands between the Guardian's verdict and the way out:
	// it holds a draft for a person when guardian.human_review says so, and
	// otherwise passes the turn on as DT-005 decided. Nil in NewGraph: a
	// node that passes every turn on.
	HumanReview nodes.Func
}

// Tables are the decision tables the default graph's edges route on: the
// nodes before them record their decisions.
type Tables struct {
	Enforcement, Routing, Verdicts *tables.Table // DT-001, DT-002, DT-005
}

// Graph is the compiled default turn and the react_agent loop inside it.
type Graph struct {
	Turn, Loop *graph.Runnable[State]
}

// Mermaid draws the turn with the loop inside its node.
func (g Graph) Mermaid() string {
	return g.Turn.MermaidWith(map[string]*graph.Runnable[State]{nodes.ReactAgentName: g.Loop})
}

// NewGraph builds the default turn (DESIGN §5) from its nodes; the react_agent
// loop is a subgraph whose tool calls run in parallel.
func NewGraph(ctx context.Context, n Nodes, t Tables, opts ...graph.CompileOption) (Graph, error) {
	const (
		guardian, plan, inject = nodes.GuardianVerifyName, nodes.SGRPlanName, nodes.InjectSyntheticName
		policy                 = nodes.PolicyCheckName
		react, model, call     = nodes.ReactAgentName, nodes.AgentModelName, nodes.CallToolName
		tools, evidence        = nodes.AgentToolsName, nodes.EvidenceCheckName
		contract, retry        = nodes.ContractCheckName, nodes.RetryBumpName
		final, exit, review    = nodes.FinalizeName, nodes.SafeExitName, nodes.HumanReviewName
	)
	loop, err := graph.New[State](react).
		AddNode(model, n.AgentModel).
		AddNode(call, n.CallTool).
		AddNode(tools, n.AgentTools).
		AddEdge(graph.START, model).
		AddConditionalEdges(model, graph.BySend(toolCalls), map[string]string{call: call, nodes.AnswerKey: graph.END}).
		AddEdge(call, tools).
		AddEdge(tools, model).
		Compile(ctx, opts...)
	if err != nil {
		return Graph{}, err
	}
	if n.HumanReview == nil {
		n.HumanReview = nodes.HumanReview{}.Node() // asks no one: every turn passes
	}
	// One shape whatever the configuration: a verdict that ends the turn
	// goes through human_review, which asks a person only when told to.
	turn, err := graph.New[State]("sgrgraph").
		AddNode(guardian, n.GuardianVerify).
		AddNode(plan, n.SGRPlan).
		AddNode(policy, n.PolicyCheck).
		AddNode(inject, n.InjectSynthetic).
		AddNode(react, graph.Subgraph(loop)).
		AddNode(evidence, n.EvidenceCheck).
		AddNode(contract, n.ContractCheck).
		AddNode(retry, n.RetryBump).
		AddNode(review, n.HumanReview).
		AddNode(final, n.Finalize).
		AddNode(exit, n.SafeExit).
		AddEdge(graph.START, guardian).
		AddConditionalEdges(guardian, graph.ByTable[State](t.Enforcement, "decision"),
			map[string]string{"Continue": plan, "Block": exit}).
		AddEdge(plan, policy).
		// The role's permissions need the plan's request type: DT-001
		// decides again, before any search, once policy_check has it.
		AddConditionalEdges(policy, graph.ByTable[State](t.Enforcement, "decision"),
			map[string]string{"Continue": inject, "Block": exit}).
		AddConditionalEdges(inject, graph.ByTable[State](t.Routing, "action"),
			map[string]string{"normal": react, "clarify": graph.END, "block": graph.END, "guardian_block": graph.END}).
		AddEdge(react, evidence).
		AddEdge(evidence, contract).
		AddConditionalEdges(contract, graph.ByTable[State](t.Verdicts, "next"),
			map[string]string{"finalize": review, "retry_bump": retry, "safe_exit": review}).
		AddConditionalEdges(review, graph.ByFunc(nodes.HumanReview{Verdicts: t.Verdicts}.Route()), map[string]string{final: final, exit: exit}).
		AddEdge(retry, react).
		AddEdge(final, graph.END).
		AddEdge(exit, graph.END).
		Compile(ctx, opts...)
	return Graph{Turn: turn, Loop: loop}, err
}

// toolCalls sends each tool call of the agent's reply to call_tool, to run
// in parallel; a reply without calls is the draft, and the loop ends.
func toolCalls(ctx context.Context, s State) ([]graph.Send[State], error) {
	if key, err := nodes.AfterAgentModel(ctx, s); err != nil || key != nodes.AgentToolsName {
		return []graph.Send[State]{{Key: nodes.AnswerKey, State: s}}, err
	}
	calls := s.Messages[len(s.Messages)-1].ToolCalls
	if len(calls) == 1 { // call_tool runs the reply's one call on the state itself
		return []graph.Send[State]{{Key: nodes.CallToolName, State: s}}, nil
	}
	sends := make([]graph.Send[State], len(calls))
	for i := range calls {
		c := *s // the graph gives each Send a clone of its own before call_tool runs
		c.ToolCall = &calls[i]
		sends[i] = graph.Send[State]{Key: nodes.CallToolName, State: &c}
	}
	return sends, nil
}

// replace puts each node with set in place of the node of its name.
func (n *Nodes) replace(with Nodes) {
	for _, p := range []struct {
		node *nodes.Func
		with nodes.Func
	}{
		{&n.GuardianVerify, with.GuardianVerify}, {&n.SGRPlan, with.SGRPlan}, {&n.PolicyCheck, with.PolicyCheck},
		{&n.InjectSynthetic, with.InjectSynthetic},
		{&n.AgentModel, with.AgentModel}, {&n.CallTool, with.CallTool}, {&n.AgentTools, with.AgentTools},
		{&n.EvidenceCheck, with.EvidenceCheck}, {&n.ContractCheck, with.ContractCheck}, {&n.RetryBump, with.RetryBump},
		{&n.Finalize, with.Finalize}, {&n.SafeExit, with.SafeExit}, {&n.HumanReview, with.HumanReview},
	} {
		if p.with != nil {
			*p.node = p.with
		}
	}
}
