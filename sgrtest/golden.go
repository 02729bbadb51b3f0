package sgrtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Transcript renders a finished turn as text for a golden file: the nodes
// in the order they ran, the decision-table rows that fired (a row with a
// verdict output shows it), every model call with the tools it offered, its
// tool choice and its error if any, the model context, the UI messages and
// the outcome (action, request type and track, verdict, retries, evidence,
// overrides, and the error that ended the turn if one did).
// Timings are left out so the text is stable.
func Transcript(s *contracts.ChatState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "user: %s\n\nnodes:", s.UserMessage)
	for _, n := range s.Diagnostics.Nodes {
		fmt.Fprintf(&b, " %s", n.Node)
	}
	b.WriteString("\n\ndecisions:")
	for _, d := range s.Made {
		fmt.Fprintf(&b, " %s.R%d", d.Table, d.Rule)
		if v := d.Outputs["verdict"]; v != "" { // DT-005's rows say PASS, RETRY or FAIL
			fmt.Fprintf(&b, "(%s)", v)
		}
	}
	b.WriteString("\n\nmodel calls:\n")
	for _, c := range s.Diagnostics.ModelCalls {
		fmt.Fprintf(&b, "- %s tools=[%s] tool_choice=%s", c.Node, strings.Join(c.Tools, ","), c.ToolChoice)
		if c.Error != "" {
			fmt.Fprintf(&b, " error=%s", oneLine(c.Error))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nmodel context:\n")
	for _, m := range s.Messages {
		fmt.Fprintf(&b, "- %s: %s", m.Role, contextLine(m.Content))
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&b, " <call %s %s>", tc.Function.Name, tc.Function.Arguments)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nui:\n")
	for _, u := range s.UI {
		fmt.Fprintf(&b, "- %s: %s\n", u.Type, oneLine(u.Content))
	}
	verdict := "-"
	if s.Verdict != nil {
		verdict = fmt.Sprintf("%s %v %v", s.Verdict.Verdict, s.Verdict.Reasons, s.Verdict.RequiredActions)
	}
	fmt.Fprintf(&b, "\naction: %s\nrequest: %s track: %s\nverdict: %s\nretries: %d\nevidence: %d\noverrides: %d\n",
		s.Action, orDash(string(s.RequestType)), orDash(string(s.Track)), verdict, s.RetryCount, len(s.Evidence), len(s.Diagnostics.Overrides))
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// contextLine shows a search result by the articles it found, so a
// transcript does not change with every score when the corpus changes.
func contextLine(content string) string {
	var res struct {
		Query    string `json:"query"`
		Articles []struct {
			KBID string `json:"kb_id"`
		} `json:"articles"`
	}
	if json.Unmarshal([]byte(content), &res) != nil || res.Articles == nil {
		return oneLine(content)
	}
	ids := make([]string, len(res.Articles))
	for i, a := range res.Articles {
		ids[i] = a.KBID
	}
	return fmt.Sprintf("search %q found [%s]", res.Query, strings.Join(ids, " "))
}

// oneLine shortens text to one line for a transcript.
func oneLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}

// Golden compares got with the file at path; with update set it writes
// got to the file instead. Tests pass update from a flag of their own:
//
//	var update = flag.Bool("update", false, "rewrite golden files")
//	sgrtest.Golden(t, "testdata/turn.golden", sgrtest.Transcript(s), *update)
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run the test with -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("golden %s differs (run with -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
