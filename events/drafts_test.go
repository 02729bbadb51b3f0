package events_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
)

func TestHoldDrafts(t *testing.T) {
	start := func(node string) contracts.Event { return contracts.Event{Kind: contracts.EventNodeStart, Node: node} }
	token := func(node, text string) contracts.Event {
		return contracts.Event{Kind: contracts.EventToken, Node: node, Text: text}
	}
	verdict := func(v contracts.VerdictKind) contracts.Event {
		return contracts.Event{Kind: contracts.EventVerdict, Node: "contract_check", Verdict: &contracts.Verdict{Verdict: v}}
	}
	retry := contracts.Event{Kind: contracts.EventRetry, Node: "agent_model", Error: "model try 1: stream cut"}
	// answer is finalize's UI message: the held tokens come just before it.
	answer := func(text string) contracts.Event {
		return contracts.Event{Kind: contracts.EventUI, Node: "finalize", UI: &contracts.UIMessage{Type: contracts.UIAnswer, Content: text}}
	}
	tests := []struct {
		name string
		in   []contracts.Event
		want string // the events passed on, one "kind node text" each
	}{
		{"a passed draft comes after its verdict",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set"), token("agent_model", " the mode."), verdict(contracts.VerdictPass), answer("Set the mode.")},
			"node_start agent_model|verdict contract_check|token agent_model Set|token agent_model  the mode.|ui finalize"},
		{"a rejected draft never comes",
			[]contracts.Event{start("agent_model"), token("agent_model", "mail me at a@b.io"), verdict(contracts.VerdictRetry),
				start("agent_model"), token("agent_model", "again a@b.io"), verdict(contracts.VerdictFail)},
			"node_start agent_model|verdict contract_check|node_start agent_model|verdict contract_check"},
		{"only the reply after the rejection is released",
			[]contracts.Event{start("agent_model"), token("agent_model", "From memory."), verdict(contracts.VerdictRetry),
				start("agent_model"), token("agent_model", "Found [1]."), verdict(contracts.VerdictPass), answer("Found [1].")},
			"node_start agent_model|verdict contract_check|node_start agent_model|verdict contract_check|token agent_model Found [1].|ui finalize"},
		{"a reply that called tools is not the draft",
			[]contracts.Event{start("agent_model"), token("agent_model", "Let me look."), start("agent_tools"),
				start("agent_model"), token("agent_model", "Found [1]."), start("evidence_check"), verdict(contracts.VerdictPass), answer("Found [1].")},
			"node_start agent_model|node_start agent_tools|node_start agent_model|node_start evidence_check|verdict contract_check|token agent_model Found [1].|ui finalize"},
		{"a cut stream's tokens give way to the whole reply",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set the"), retry, token("agent_model", "Set the mode."), verdict(contracts.VerdictPass), answer("Set the mode.")},
			"node_start agent_model|retry agent_model model try 1: stream cut|verdict contract_check|token agent_model Set the mode.|ui finalize"},
		{"an answer finalize changed is streamed as written, a word at a time",
			[]contracts.Event{start("agent_model"), token("agent_model", "Mode [3]"), token("agent_model", " and [6]."), verdict(contracts.VerdictPass),
				answer("Mode [1]  and\n[2].")},
			"node_start agent_model|verdict contract_check|token agent_model Mode|token agent_model [1]|token agent_model and|token agent_model [2].|ui finalize"},
		{"a PASS without the answer's message releases nothing",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set the mode."), verdict(contracts.VerdictPass), start("human_review")},
			"node_start agent_model|verdict contract_check|node_start human_review"},
		{"a message before the verdict releases nothing",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set the mode."), answer("Hello"), verdict(contracts.VerdictRetry)},
			"node_start agent_model|ui finalize|verdict contract_check"},
		{"other nodes' tokens are never released",
			[]contracts.Event{start("sgr_plan"), token("sgr_plan", `{"action":"normal"}`), verdict(contracts.VerdictPass), answer("")},
			"node_start sgr_plan|verdict contract_check|ui finalize"},
		{"a turn that ends without a verdict shows nothing of its draft",
			[]contracts.Event{start("agent_model"), token("agent_model", "half a repl"), start("safe_exit")},
			"node_start agent_model|node_start safe_exit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			sink := events.HoldDrafts(func(ev contracts.Event) {
				got = append(got, strings.TrimSpace(strings.Join([]string{string(ev.Kind), ev.Node, ev.Text + ev.Error}, " ")))
			}, "agent_model")
			for _, ev := range tc.in {
				sink(ev)
			}
			assert.Equal(t, tc.want, strings.Join(got, "|"))
		})
	}
}

func TestHoldDraftsConcurrentCallers(t *testing.T) {
	var mu sync.Mutex
	var got []contracts.Event
	sink := events.HoldDrafts(func(ev contracts.Event) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev)
	}, "agent_model")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				sink(contracts.Event{Kind: contracts.EventToolResult, Node: "agent_tools"})
				sink(contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: "x"})
			}
		})
	}
	wg.Wait()
	sink(contracts.Event{Kind: contracts.EventVerdict, Verdict: &contracts.Verdict{Verdict: contracts.VerdictPass}})
	sink(contracts.Event{Kind: contracts.EventUI, UI: &contracts.UIMessage{Type: contracts.UIAnswer, Content: strings.Repeat("x", 8*100)}})
	assert.Len(t, got, 8*100+1+8*100+1, "every event passes once, the tokens after the verdict")
	for _, ev := range got[:8*100] {
		assert.Equal(t, contracts.EventToolResult, ev.Kind)
	}
}

// Whatever finalize made of the draft, the released tokens spell the
// answer exactly, spaces and line breaks included.
func TestReleasedTokensSpellTheAnswer(t *testing.T) {
	for _, tc := range []struct{ draft, answer string }{
		{"Set the mode [1].", "Set the mode [1]."},
		{"Mode [3] and [6].", "Mode [1] and [2]."},
		{"Mode [1].", "Only what the knowledge base says.\n\nMode [1]."},
		{"Режим [2]", "  Режим\t[1]\n"},
		{"x", ""},
	} {
		var spelled strings.Builder
		sink := events.HoldDrafts(func(ev contracts.Event) {
			if ev.Kind == contracts.EventToken {
				spelled.WriteString(ev.Text)
			}
		}, "agent_model")
		for _, word := range strings.SplitAfter(tc.draft, " ") {
			sink(contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: word})
		}
		sink(contracts.Event{Kind: contracts.EventVerdict, Verdict: &contracts.Verdict{Verdict: contracts.VerdictPass}})
		sink(contracts.Event{Kind: contracts.EventUI, UI: &contracts.UIMessage{Type: contracts.UIAnswer, Content: tc.answer}})
		assert.Equal(t, tc.answer, spelled.String(), "draft %q", tc.draft)
	}
}
