package decisions

import "github.com/sgrgraph/sgrgraph/tables"

// outputRouting is DT-004 of seed 000 §12: what each output channel receives.
func outputRouting() tables.Table {
	return tables.Table{
		ID: "DT-004", Name: "output_routing", Title: "Output Routing Decision",
		Description: "What reaches each output: the model context, the UI and the structured metadata. " +
			"The tool trace (raw JSON and call metadata) reaches the metadata only.",
		Inputs: []tables.Column{{Name: "output_channel", Type: tables.TypeString, Values: []string{"context", "ui", "metadata"}}},
		Outputs: []tables.Column{
			{Name: "analysis_section", Type: tables.TypeBool}, {Name: "response_section", Type: tables.TypeBool},
			{Name: "tool_trace", Type: tables.TypeBool}, {Name: "structured_data", Type: tables.TypeBool},
		},
		Rules: []tables.Rule{
			{Inputs: []string{`"context"`}, Outputs: []string{"true", "true", "false", "false"}, Annotation: "Context synthetics (model)"},
			{Inputs: []string{`"ui"`}, Outputs: []string{"false", "true", "false", "false"}, Annotation: "UI synthetics (user)"},
			{Inputs: []string{`"metadata"`}, Outputs: []string{"true", "true", "true", "true"}, Annotation: "Structured metadata (system)"},
		},
		Examples: []tables.Example{
			ex(1, "output_channel", "context"), ex(2, "output_channel", "ui"), ex(3, "output_channel", "metadata"),
		},
	}
}
