package agent

import (
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/nodes"
	"github.com/sgrgraph/sgrgraph/tables"
)

// Nodes are the steps of the default graph; replace any of them to change
// one step and keep the rest.
type Nodes struct {
	GuardianVerify, SGRPlan, InjectSynthetic nodes.Func
	AgentModel, AgentTools                   nodes.Func
	EvidenceCheck, ContractCheck, RetryBump  nodes.Func
	Finalize, SafeExit                       nodes.Func
}

// Edges are the decision tables of the default graph's conditional edges.
type Edges struct {
	Enforcement, Routing, Verdicts *tables.Table // DT-001, DT-002, DT-005
	GuardMode                      string        // DT-001's guard_mode
}

// NewGraph builds the default turn (DESIGN §5) from its nodes; the
// decision tables drive its conditional edges and label them in diagrams.
func NewGraph(n Nodes, e Edges) *graph.StateGraph {
	const (
		guardian, plan, inject = nodes.GuardianVerifyName, nodes.SGRPlanName, nodes.InjectSyntheticName
		react, model, tools    = nodes.ReactAgentName, nodes.AgentModelName, nodes.AgentToolsName
		evidence, contract     = nodes.EvidenceCheckName, nodes.ContractCheckName
		retry, final, exit     = nodes.RetryBumpName, nodes.FinalizeName, nodes.SafeExitName
	)
	loop := graph.New(react).
		AddNode(model, n.AgentModel).
		AddNode(tools, n.AgentTools).
		AddEdge(graph.START, model).
		AddConditionalEdges(model, nodes.AfterAgentModel, map[string]string{tools: tools, graph.END: graph.END}).
		AddEdge(tools, model)

	return graph.New("sgrgraph").
		AddNode(guardian, n.GuardianVerify).
		AddNode(plan, n.SGRPlan).
		AddNode(inject, n.InjectSynthetic).
		AddSubgraph(react, loop).
		AddNode(evidence, n.EvidenceCheck).
		AddNode(contract, n.ContractCheck).
		AddNode(retry, n.RetryBump).
		AddNode(final, n.Finalize).
		AddNode(exit, n.SafeExit).
		AddEdge(graph.START, guardian).
		AddTableEdges(guardian, e.Enforcement, nodes.EnforcementInputs(e.GuardMode), "decision",
			map[string]string{"Continue": plan, "Block": exit}).
		AddEdge(plan, inject).
		AddTableEdges(inject, e.Routing, nodes.RoutingInputs, "action",
			map[string]string{"normal": react, "clarify": graph.END, "block": graph.END, "guardian_block": graph.END}).
		AddConditionalEdges(react, nodes.AfterReactAgent, map[string]string{evidence: evidence, exit: exit}).
		AddEdge(evidence, contract).
		AddTableEdges(contract, e.Verdicts, nodes.VerdictInputs, "next",
			map[string]string{"finalize": final, "retry_bump": retry, "safe_exit": exit}).
		AddEdge(retry, react).
		AddEdge(final, graph.END).
		AddEdge(exit, graph.END)
}
