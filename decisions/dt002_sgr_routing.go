package decisions

import (
	"fmt"

	"github.com/sgrgraph/sgrgraph/tables"
)

// sgrRouting is DT-002 of seed 000 §12 in the seed's row order. The rows are
// mutually exclusive, so FIRST gives the seed's priority guardian_block >
// block > clarify > normal. Unknown (a failed classifier in report mode) is
// routed like N/A.
func sgrRouting(c Config) tables.Table {
	spamLow, spamHigh := fmt.Sprintf("< %g", c.SpamThreshold), fmt.Sprintf(">= %g", c.SpamThreshold)
	confHigh, confLow := fmt.Sprintf(">= %g", c.ConfidenceThreshold), fmt.Sprintf("< %g", c.ConfidenceThreshold)
	const notUnsafe = `"Safe","Controversial","N/A","Unknown"`
	const score = "[0..1]" // the plan decoder clamps both scores to it
	s, cf := c.SpamThreshold, c.ConfidenceThreshold
	return tables.Table{
		ID: "DT-002", Name: "sgr_routing", Title: "SGR Routing Decision",
		Description: "Action and template from the SGR analysis and the Guardian's level. The table wins over the model's own action.",
		Inputs: []tables.Column{
			{Name: "spam_score", Type: tables.TypeNumber, Range: score},
			{Name: "intent_confidence", Type: tables.TypeNumber, Range: score},
			{Name: "guardian_level", Type: tables.TypeString, Values: []string{"Safe", "Controversial", "Unsafe", "N/A", "Unknown"}},
		},
		Outputs: []tables.Column{{Name: "action", Type: tables.TypeString}, {Name: "template", Type: tables.TypeString}, {Name: "flow", Type: tables.TypeString}},
		Rules: []tables.Rule{
			{Inputs: []string{spamLow, confHigh, notUnsafe}, Outputs: []string{"normal", "normal", "Continue"}, Annotation: "Continue with agent tools"},
			{Inputs: []string{spamLow, confLow, notUnsafe}, Outputs: []string{"clarify", "clarify", "Wait"}, Annotation: "Wait for user clarification"},
			{Inputs: []string{spamHigh, "-", notUnsafe}, Outputs: []string{"block", "block", "Stop"}, Annotation: "Stop, show refusal"},
			{Inputs: []string{"-", "-", `"Unsafe"`}, Outputs: []string{"guardian_block", "guardian_block", "Stop"}, Annotation: "Stop, show safety refusal"},
		},
		Examples: []tables.Example{
			ex(1, "spam_score", 0.1, "intent_confidence", 0.9, "guardian_level", "Safe"),
			ex(1, "spam_score", 0.2, "intent_confidence", cf, "guardian_level", "Controversial"),
			ex(1, "spam_score", 0.0, "intent_confidence", 1.0, "guardian_level", "N/A"),
			ex(1, "spam_score", 0.3, "intent_confidence", 0.8, "guardian_level", "Unknown"),
			ex(2, "spam_score", 0.2, "intent_confidence", cf-0.01, "guardian_level", "Safe"),
			ex(2, "spam_score", s-0.01, "intent_confidence", 0.0, "guardian_level", "Controversial"),
			ex(3, "spam_score", s, "intent_confidence", 0.9, "guardian_level", "Safe"),
			ex(3, "spam_score", 1.0, "intent_confidence", 0.1, "guardian_level", "N/A"),
			ex(4, "spam_score", 0.1, "intent_confidence", 0.9, "guardian_level", "Unsafe"),
			ex(4, "spam_score", 0.95, "intent_confidence", 0.1, "guardian_level", "Unsafe"),
		},
	}
}
