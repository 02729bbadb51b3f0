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
	tests := []struct {
		name string
		in   []contracts.Event
		want string // the events passed on, one "kind node text" each
	}{
		{"a passed draft comes after its verdict",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set"), token("agent_model", " the mode."), verdict(contracts.VerdictPass)},
			"node_start agent_model|verdict contract_check|token agent_model Set|token agent_model  the mode."},
		{"a rejected draft never comes",
			[]contracts.Event{start("agent_model"), token("agent_model", "mail me at a@b.io"), verdict(contracts.VerdictRetry),
				start("agent_model"), token("agent_model", "again a@b.io"), verdict(contracts.VerdictFail)},
			"node_start agent_model|verdict contract_check|node_start agent_model|verdict contract_check"},
		{"only the reply after the rejection is released",
			[]contracts.Event{start("agent_model"), token("agent_model", "From memory."), verdict(contracts.VerdictRetry),
				start("agent_model"), token("agent_model", "Found [1]."), verdict(contracts.VerdictPass)},
			"node_start agent_model|verdict contract_check|node_start agent_model|verdict contract_check|token agent_model Found [1]."},
		{"a reply that called tools is not the draft",
			[]contracts.Event{start("agent_model"), token("agent_model", "Let me look."), start("agent_tools"),
				start("agent_model"), token("agent_model", "Found [1]."), start("evidence_check"), verdict(contracts.VerdictPass)},
			"node_start agent_model|node_start agent_tools|node_start agent_model|node_start evidence_check|verdict contract_check|token agent_model Found [1]."},
		{"a cut stream's tokens give way to the whole reply",
			[]contracts.Event{start("agent_model"), token("agent_model", "Set the"), retry, token("agent_model", "Set the mode."), verdict(contracts.VerdictPass)},
			"node_start agent_model|retry agent_model model try 1: stream cut|verdict contract_check|token agent_model Set the mode."},
		{"other nodes' tokens are never released",
			[]contracts.Event{start("sgr_plan"), token("sgr_plan", `{"action":"normal"}`), verdict(contracts.VerdictPass)},
			"node_start sgr_plan|verdict contract_check"},
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
	assert.Len(t, got, 8*100+1+8*100, "every event passes once, the tokens after the verdict")
	for _, ev := range got[:8*100] {
		assert.Equal(t, contracts.EventToolResult, ev.Kind)
	}
}
