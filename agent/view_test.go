package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
)

func token(text string) contracts.Event {
	return contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: text}
}

// shown masks every event, and each run of answer tokens as one text: a
// value split between tokens is masked too.
func TestShownMasksEventsAndTokenRuns(t *testing.T) {
	answer := contracts.Event{Kind: contracts.EventUI, Node: "finalize", UI: &contracts.UIMessage{Type: contracts.UIAnswer, Content: "Write to support@example.com"}}
	maskedAnswer := answer
	maskedAnswer.UI = &contracts.UIMessage{Type: contracts.UIAnswer, Content: "Write to su***************om"}
	for _, tc := range []struct {
		name  string
		in    []contracts.Event
		flush bool
		want  []contracts.Event
	}{
		{"clean tokens pass as they are", []contracts.Event{token("Reset it "), token("in Settings."), answer},
			false, []contracts.Event{token("Reset it "), token("in Settings."), maskedAnswer}},
		{"a value within one token", []contracts.Event{token("Write to support@example.com "), token("today."), answer},
			false, []contracts.Event{token("Write to su***************om "), token("today."), maskedAnswer}},
		{"a value split between tokens goes out as one masked token", []contracts.Event{token("Write to support@exa"), token("mple.com today."), answer},
			false, []contracts.Event{token("Write to su***************om today."), maskedAnswer}},
		{"tokens wait for the next other event", []contracts.Event{token("Reset it.")}, false, nil},
		{"flush sends the last run", []contracts.Event{token("call +1 415 "), token("555 0100")}, true, []contracts.Event{token("call +1***********00")}},
		{"other events pass at once, masked", []contracts.Event{{Kind: contracts.EventToolResult, Node: "call_tool", Text: "mail support@example.com"}},
			false, []contracts.Event{{Kind: contracts.EventToolResult, Node: "call_tool", Text: "mail su***************om"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []contracts.Event
			show, flush := shown(func(ev contracts.Event) { got = append(got, ev) }, Masking{})
			for _, ev := range tc.in {
				show(ev)
			}
			if tc.flush {
				flush()
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// Masking keeps the knowledge base's text only when the settings say so,
// and masks everything else either way.
func TestMaskingKeepsEvidenceOnlyWhenAsked(t *testing.T) {
	art := contracts.Article{KBID: "contact", Title: "Mail support@example.com", Chunks: []contracts.Chunk{{Text: "call +1 415 555 0100"}}}
	ev := contracts.EvidenceItem{Snippet: "mail support@example.com"}
	r := contracts.StructuredResult{Answer: "Write to support@example.com", Articles: []contracts.Article{art}, Evidence: []contracts.EvidenceItem{ev}}
	for _, tc := range []struct {
		name string
		m    Masking
		keep bool
	}{{"masked", Masking{}, false}, {"evidence kept", Masking{KeepEvidence: true}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.m.Result(r)
			assert.Equal(t, "Write to su***************om", got.Answer, "the answer is masked either way")
			assert.Equal(t, tc.keep, got.Articles[0].Chunks[0].Text == art.Chunks[0].Text)
			assert.Equal(t, tc.keep, got.Evidence[0].Snippet == ev.Snippet)
			assert.Equal(t, got.Articles[0], tc.m.Article(art))
			assert.Equal(t, got.Evidence[0], tc.m.Evidence(ev))
		})
	}
	assert.Equal(t, Masking{KeepEvidence: true}, MaskingOf(config.Output{UnmaskedEvidence: true, IncludeQueryTraces: true}))
	assert.Equal(t, Masking{}, MaskingOf(config.Output{IncludeQueryTraces: true}))
}
