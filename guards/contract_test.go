package guards

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/sgrgraph/sgrgraph/contracts"
)

func TestCheckContract(t *testing.T) {
	spec := c.ArchitectSpec{ResponseFormat: "markdown", RequiredSections: []string{"Summary", "Steps"},
		ForbiddenContent: []string{"internal only"}, DomainTerms: []string{"Guardian", "decision table"}}
	tests := []struct {
		name    string
		spec    c.ArchitectSpec
		draft   string
		ok      bool
		reason  string
		actions []c.RequiredAction
	}{
		{"all satisfied", spec, "## Summary\nThe Guardian judges.\n## Steps\n1. run", true, "ok", nil},
		{"section as plain text", spec, "Summary: the guardian judges. Steps: none.", true, "ok", nil},
		{"section as header of another case and level", c.ArchitectSpec{RequiredSections: []string{"Summary"}}, "#### summary\ntext", true, "ok", nil},
		{"missing sections", spec, "## Summary\nThe Guardian judges.", false, "missing_required_sections=[Steps]",
			[]c.RequiredAction{c.ActAddRequiredSections, c.ActRegenerateDraft}},
		{"section only mid-line is not a header", c.ArchitectSpec{RequiredSections: []string{"Steps"}}, "see the ## steps below", false,
			"missing_required_sections=[Steps]", []c.RequiredAction{c.ActAddRequiredSections, c.ActRegenerateDraft}},
		{"forbidden content in any case", spec, "## Summary\nGuardian. INTERNAL ONLY.\n## Steps", false, "forbidden_content_detected=[internal only]",
			[]c.RequiredAction{c.ActRemoveForbiddenContent, c.ActRegenerateDraft}},
		{"sensitive data", spec, "## Summary\nGuardian: write to ivan@example.com\n## Steps", false, "sensitive_data_detected=[email]",
			[]c.RequiredAction{c.ActRemoveForbiddenContent, c.ActRegenerateDraft}},
		{"domain terms not used", spec, "## Summary\nIt works.\n## Steps\nDo it.", false, "domain_terms_not_used",
			[]c.RequiredAction{c.ActUseDomainTerms, c.ActRegenerateDraft}},
		{"domain term in other case counts", spec, "## Summary\nA DECISION TABLE decides.\n## Steps", true, "ok", nil},
		{"empty contract", c.ArchitectSpec{}, "anything", true, "ok", nil},
		{"empty draft fails an empty contract", c.ArchitectSpec{}, "", false, "empty_draft", []c.RequiredAction{c.ActRegenerateDraft}},
		{"blank draft", spec, " \n\t", false, "empty_draft", []c.RequiredAction{c.ActRegenerateDraft}},
		{"seed §10 draft", c.ArchitectSpec{ResponseFormat: "markdown", RequiredSections: []string{"Summary"}}, "## Summary\nContent here", true, "ok", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, c.CheckResult{OK: tc.ok, Reason: tc.reason, RequiredActions: tc.actions}, CheckContract(tc.spec, tc.draft))
		})
	}
}

func BenchmarkCheckContract(b *testing.B) {
	spec := c.ArchitectSpec{RequiredSections: []string{"Summary", "Steps"}, ForbiddenContent: []string{"internal only", "secret"},
		DomainTerms: []string{"Guardian"}}
	draft := "## Summary\n" + strings.Repeat("The Guardian checks evidence and the contract of every answer. ", 64) + "\n## Steps\n1. run"
	b.ReportAllocs()
	for b.Loop() {
		if !CheckContract(spec, draft).OK {
			b.Fatal("draft should pass")
		}
	}
}
