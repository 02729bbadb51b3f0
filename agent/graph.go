package agent

import (
	"context"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/prebuilt"
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

// NewGraph builds the default turn (docs/the-turn.md) from its nodes; the react_agent
// loop is a prebuilt agent (prebuilt.NewAgent) run as a subgraph, whose
// tool calls run as parallel branches.
func NewGraph(ctx context.Context, n Nodes, t Tables, opts ...graph.CompileOption) (Graph, error) {
	const (
		guardian, plan, inject = nodes.GuardianVerifyName, nodes.SGRPlanName, nodes.InjectSyntheticName
		policy                 = nodes.PolicyCheckName
		react, model, call     = nodes.ReactAgentName, nodes.AgentModelName, nodes.CallToolName
		tools, evidence        = nodes.AgentToolsName, nodes.EvidenceCheckName
		contract, retry        = nodes.ContractCheckName, nodes.RetryBumpName
		final, exit, review    = nodes.FinalizeName, nodes.SafeExitName, nodes.HumanReviewName
	)
	loop, err := prebuilt.NewAgent[State](ctx, nil, nil,
		prebuilt.WithName[State](react),
		prebuilt.WithNodeNames[State](model, tools),
		// The turn's model step is given whole (Nodes.AgentModel may be
		// anyone's): it builds its request from the plan, the answer
		// language and DT-003's binding of the SGR tool, counts an
		// attempt's calls in ReactIters, and keeps the draft. The agent
		// routes its reply as its own.
		prebuilt.WithModelNode[State](n.AgentModel),
		// Each tool call is a branch of its own, run by call_tool with the
		// call in ToolCall; agent_tools, where they meet, records their
		// results as evidence.
		prebuilt.WithToolCallBranches(prebuilt.ToolCallBranches[State]{Name: call, Node: n.CallTool, Split: withCall}),
		prebuilt.WithToolsNode[State](n.AgentTools),
		prebuilt.WithCompileOptions[State](opts...))
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

// withCall is the state of the branch that runs one tool call: the
// turn's state with the call in ToolCall, which call_tool runs.
func withCall(s State, call schema.ToolCall) State {
	c := *s // the graph gives each branch a clone of its own before call_tool runs
	c.ToolCall = &call
	return &c
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
