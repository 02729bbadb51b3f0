package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestPrinterMarksRejectedDrafts(t *testing.T) {
	token := func(s string) contracts.Event {
		return contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: s}
	}
	verdict := func(v contracts.VerdictKind, reason string) contracts.Event {
		return contracts.Event{Kind: contracts.EventVerdict, Verdict: &contracts.Verdict{Verdict: v, Reasons: []string{reason}}}
	}
	refusal := contracts.Event{Kind: contracts.EventUI, UI: &contracts.UIMessage{Type: contracts.UIRefusal, Content: "I can't give a reliable answer."}}
	tests := []struct {
		name   string
		events []contracts.Event
		want   string
	}{
		{"a passed draft stands", []contracts.Event{token("Use "), token("guard.mode."), verdict(contracts.VerdictPass, "ok")},
			"Use guard.mode."},
		{"a retried draft is withdrawn", []contracts.Event{token("From memory."), verdict(contracts.VerdictRetry, "no_evidence_fast_track"), token("Found [1].")},
			"From memory.\n\n[guardian: RETRY no_evidence_fast_track: the draft above is withdrawn]\n\nFound [1]."},
		{"a failed draft is withdrawn before the refusal", []contracts.Event{token("Memory."), verdict(contracts.VerdictFail, "empty_draft"), refusal},
			"Memory.\n\n[guardian: FAIL empty_draft: the draft above is withdrawn]\n\nI can't give a reliable answer.\n\n"},
		{"a cut stream is marked before the reply comes again", []contracts.Event{token("Set the"),
			{Kind: contracts.EventRetry, Error: "model try 1: stream cut after 3 chunks: unexpected EOF"}, token("Set the mode.")},
			"Set the\n\n[model try 1: stream cut after 3 chunks: unexpected EOF]\n\nSet the mode."},
		{"a failure without a draft only says so", []contracts.Event{verdict(contracts.VerdictFail, "forbidden_topic(salary)"), refusal},
			"\n[guardian: FAIL forbidden_topic(salary)]\n\nI can't give a reliable answer.\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &printer{out: &out}
			for _, ev := range tc.events {
				p.event(ev)
			}
			assert.Equal(t, tc.want, out.String())
		})
	}
}
