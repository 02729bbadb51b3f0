package decisions

import "github.com/sgrgraph/sgrgraph/tables"

// trackSelection is DT-006: which track a request type takes. Requests about
// live data, rules, design and failures need QUALITY (more evidence, the
// contract check); documentation questions and small talk take FAST. An
// unknown or empty request type takes FAST.
func trackSelection() tables.Table {
	return tables.Table{
		ID: "DT-006", Name: "track_selection", Title: "Track Selection Decision",
		Description: "QUALITY or FAST from the request type of the SGR plan.",
		Inputs:      []tables.Column{{Name: "request_type", Type: tables.TypeString}},
		Outputs:     []tables.Column{{Name: "track", Type: tables.TypeString}},
		Rules: []tables.Rule{
			{Inputs: []string{`"STATUS_METRIC","STATUS_SUMMARY","STATUS_LIST"`}, Outputs: []string{"QUALITY"}, Annotation: "live data must be exact"},
			{Inputs: []string{`"HOWTO_POLICY","DESIGN_ARCH","DATA_DEFINITION"`}, Outputs: []string{"QUALITY"}, Annotation: "rules and design need sources"},
			{Inputs: []string{`"TROUBLESHOOTING"`}, Outputs: []string{"QUALITY"}, Annotation: "failures need evidence"},
			{Inputs: []string{`"KNOWLEDGE_QA","CASUAL"`}, Outputs: []string{"FAST"}},
			{Inputs: []string{"-"}, Outputs: []string{"FAST"}, Annotation: "unknown or missing request type"},
		},
		Examples: []tables.Example{
			ex(1, "request_type", "STATUS_METRIC"), ex(1, "request_type", "STATUS_SUMMARY"), ex(1, "request_type", "STATUS_LIST"),
			ex(2, "request_type", "HOWTO_POLICY"), ex(2, "request_type", "DESIGN_ARCH"), ex(2, "request_type", "DATA_DEFINITION"),
			ex(3, "request_type", "TROUBLESHOOTING"),
			ex(4, "request_type", "KNOWLEDGE_QA"), ex(4, "request_type", "CASUAL"),
			ex(5, "request_type", ""),
		},
	}
}
