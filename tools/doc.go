// Package tools holds the eino tools of sgrgraph: analyse_user_request, the
// schema-guided reasoning (SGR) tool whose JSON schema is generated from
// contracts.SGRPlan, and search_kb over the knowledge base.
//
// # Example
//
// Build the SGR tool for Russian answers and decode a model's arguments:
//
//	info, _ := tools.SGRToolInfo(tools.SGROptions{Language: "ru", Product: "sgrgraph"})
//	decoded, err := tools.DecodePlan(msg.ToolCalls[0].Function.Arguments)
package tools
