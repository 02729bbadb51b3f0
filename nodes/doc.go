// Package nodes holds the nodes of an sgrgraph turn, one file each, each a
// plain function over *contracts.ChatState: guardian_verify, sgr_plan,
// policy_check, inject_synthetic, agent_model and agent_tools (the react_agent loop),
// evidence_check, contract_check, retry_bump, human_review, finalize and safe_exit.
//
// Each node is made by a constructor that takes what it needs explicitly;
// nothing is global, so two graphs with different settings run side by side.
package nodes

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Func is a node: it reads and writes the turn's state.
type Func = func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error)

// The node names of the default graph.
const (
	GuardianVerifyName  = "guardian_verify"
	SGRPlanName         = "sgr_plan"
	PolicyCheckName     = "policy_check"
	InjectSyntheticName = "inject_synthetic"
	ReactAgentName      = "react_agent"
	AgentModelName      = "agent_model"
	AgentToolsName      = "agent_tools"
	CallToolName        = "call_tool"
	EvidenceCheckName   = "evidence_check"
	ContractCheckName   = "contract_check"
	RetryBumpName       = "retry_bump"
	FinalizeName        = "finalize"
	SafeExitName        = "safe_exit"
	HumanReviewName     = "human_review"
)

// Names lists every node name of the default graph, the react_agent loop's
// included: what labels a node's metrics and its log lines. The graph has
// these nodes whatever the configuration; TestNodeNamesAreTheGraphs (package
// tests) fails when the compiled graph and this list disagree.
func Names() []string {
	return []string{GuardianVerifyName, SGRPlanName, PolicyCheckName, InjectSyntheticName, ReactAgentName, AgentModelName,
		AgentToolsName, CallToolName, EvidenceCheckName, ContractCheckName, RetryBumpName, FinalizeName, SafeExitName, HumanReviewName}
}

func noteError(s *contracts.ChatState, node, msg string) {
	s.Diagnostics.Errors = append(s.Diagnostics.Errors, contracts.NodeNote{Node: node, Message: msg})
}

func note(s *contracts.ChatState, node, msg string) {
	s.Diagnostics.Notes = append(s.Diagnostics.Notes, contracts.NodeNote{Node: node, Message: msg})
}
