// Package nodes holds the nodes of an sgrgraph turn, one file each, each a
// plain function over *contracts.ChatState: guardian_verify, sgr_plan,
// inject_synthetic, react_agent, evidence_check, contract_check, retry_bump,
// finalize and safe_exit.
package nodes
