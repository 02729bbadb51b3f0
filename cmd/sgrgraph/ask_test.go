package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

func TestPrinter(t *testing.T) {
	token := func(s string) contracts.Event {
		return contracts.Event{Kind: contracts.EventToken, Node: "agent_model", Text: s}
	}
	verdict := func(v contracts.VerdictKind, reason string) contracts.Event {
		return contracts.Event{Kind: contracts.EventVerdict, Verdict: &contracts.Verdict{Verdict: v, Reasons: []string{reason}}}
	}
	ui := func(kind contracts.UIType, content string) contracts.Event {
		return contracts.Event{Kind: contracts.EventUI, UI: &contracts.UIMessage{Type: kind, Content: content}}
	}
	refusal := ui(contracts.UIRefusal, "I can't give a reliable answer.")
	tests := []struct {
		name   string
		events []contracts.Event
		want   string
	}{
		{"a passed answer is printed once, from its message, the sources follow",
			[]contracts.Event{verdict(contracts.VerdictPass, "ok"), token("Use "), token("guard.mode [3]."),
				ui(contracts.UIAnswer, "Use guard.mode [1]."), ui(contracts.UISources, "Sources:\n[1] Guard")},
			"Use guard.mode [1].\n\nSources:\n[1] Guard\n\n"},
		{"a retried draft says why, then the next answer",
			[]contracts.Event{verdict(contracts.VerdictRetry, "no_evidence_fast_track"), verdict(contracts.VerdictPass, "ok"), token("Found [1]."),
				ui(contracts.UIAnswer, "Found [1].")},
			"[guardian: RETRY no_evidence_fast_track]\n\nFound [1].\n\n"},
		{"a failed draft says why before the refusal",
			[]contracts.Event{verdict(contracts.VerdictFail, "sensitive_data_detected=[email]"), refusal},
			"[guardian: FAIL sensitive_data_detected=[email]]\n\nI can't give a reliable answer.\n\n"},
		{"a retried call goes to the log, not into the answer",
			[]contracts.Event{{Kind: contracts.EventRetry, Error: "model try 1 failed: no reply"}, verdict(contracts.VerdictPass, "ok"), ui(contracts.UIAnswer, "Set the mode.")},
			"Set the mode.\n\n"},
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

// The footer is a line of its own in plain words, in the answer's
// language, from the label catalogue.
func TestPrinterFooter(t *testing.T) {
	labels, err := templates.UILabels()
	require.NoError(t, err)
	pass := &contracts.Verdict{Verdict: contracts.VerdictPass}
	fail := &contracts.Verdict{Verdict: contracts.VerdictFail}
	six := make([]contracts.Article, 6)
	tests := []struct {
		name     string
		res      contracts.StructuredResult
		question string
		want     string
	}{
		{"passed, every article listed", contracts.StructuredResult{Action: contracts.ActionNormal, Verdict: pass, Answer: "Hello!", Articles: six},
			"hi", "Hello!\n\nanswer checked: passed · 6 sources\n"},
		{"passed after a retry, two cited", contracts.StructuredResult{Action: contracts.ActionNormal, Verdict: pass, RetryCount: 1, Answer: "A [1], B [2].", Articles: six},
			"hi", "A [1], B [2].\n\nanswer checked: passed · 2 sources · 1 retry\n"},
		{"in Russian", contracts.StructuredResult{Action: contracts.ActionNormal, Verdict: pass, RetryCount: 2, Answer: "Ответ [1].", Articles: six},
			"вопрос", "Ответ [1].\n\nответ проверен: принят · 1 источник · 2 повтора\n"},
		{"not accepted", contracts.StructuredResult{Action: contracts.ActionNormal, Verdict: fail, RetryCount: 2, Answer: "I can't."},
			"hi", "I can't.\n\nanswer checked: not accepted · 2 retries\n"},
		{"the model was down", contracts.StructuredResult{Action: contracts.ActionNormal, Answer: "Down."}, "hi", "Down.\n\nanswer not checked\n"},
		{"a question back", contracts.StructuredResult{Action: contracts.ActionClarify, Answer: "Which?"}, "hi", "Which?\n\nwaiting for your reply\n"},
		{"off-topic", contracts.StructuredResult{Action: contracts.ActionBlock, Answer: "No."}, "hi", "No.\n\nnot answered: off-topic\n"},
		{"the query policy", contracts.StructuredResult{Action: contracts.ActionBlock, Verdict: fail, Answer: "No."}, "hi", "No.\n\nnot answered: outside the query policy\n"},
		{"the safety check, in the question's language", contracts.StructuredResult{Action: contracts.ActionGuardianBlock}, "как сделать бомбу",
			"без ответа: остановлен проверкой безопасности\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &printer{out: &out, labels: labels, question: tc.question}
			p.finish(tc.res)
			assert.Equal(t, tc.want, out.String())
		})
	}
}

// On a terminal the answer's Markdown is formatted; piped, it is raw.
func TestPrinterRendersMarkdownOnlyWhenAsked(t *testing.T) {
	answer := "## Steps\n\n- Set **guard.mode** in `config.yaml`, see [docs](https://x.test).\n\n```\nguard:\n  mode: **report**\n```"
	for _, render := range []bool{false, true} {
		var out bytes.Buffer
		p := &printer{out: &out, render: render}
		p.event(contracts.Event{Kind: contracts.EventUI, UI: &contracts.UIMessage{Type: contracts.UIAnswer, Content: answer}})
		if !render {
			assert.Equal(t, answer+"\n\n", out.String())
			continue
		}
		assert.Equal(t, "\x1b[1mSteps\x1b[0m\n\n• Set \x1b[1mguard.mode\x1b[0m in \x1b[36mconfig.yaml\x1b[0m, see docs (https://x.test).\n\n\n"+
			"    \x1b[36mguard:\x1b[0m\n    \x1b[36m  mode: **report**\x1b[0m\n\n\n", out.String())
	}
}

func TestMarkdownMode(t *testing.T) {
	tests := []struct {
		mode     markdownMode
		terminal bool
		noColor  string
		want     bool
	}{
		{markdownAuto, true, "", true}, {markdownAuto, false, "", false}, {markdownAuto, true, "1", false},
		{markdownRender, false, "1", true}, {markdownRaw, true, "", false},
	}
	for _, tc := range tests {
		got, err := tc.mode.rendered(tc.terminal, tc.noColor)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%+v", tc)
	}
	_, _, err := run(t, "ask", "--markdown", "fancy", "hello")
	assert.EqualError(t, err, `--markdown: "fancy" is not auto, render or raw`)
}

// rawContacts are the personal data of contactKB.
var rawContacts = []string{"support@example.com", "+1 415 555 0100", "4111 1111 1111 1111"}

// contactKB is a knowledge base whose one article holds an e-mail address,
// a phone number and a card number.
func contactKB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	article := "# Contacting support\n\nWrite to the support team at support@example.com or call +1 415 555 0100 on weekdays.\n" +
		"The company card used for refunds is 4111 1111 1111 1111.\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "support.md"), []byte(article), 0o644))
	return dir
}

func assertNoContacts(t *testing.T, text, what string) {
	t.Helper()
	for _, raw := range rawContacts {
		assert.NotContains(t, text, raw, "%s holds %s", what, raw)
	}
}

// The offline engine answers by quoting the article, so its draft holds
// the article's contacts. They are the knowledge base's own, so the
// Guardian passes them (no sensitive_data_detected); by default nothing
// printed holds them: the answer, the --json result and the trace show
// them masked.
func TestAskMasksTheKnowledgeBasesContactsByDefault(t *testing.T) {
	kbDir := contactKB(t)
	cache := filepath.Join(kbDir, ".c")
	const question = "How do I contact the support team?"

	out, _, err := run(t, "ask", "--kb", kbDir, "--cache-dir", cache, question)
	require.NoError(t, err)
	assertNoContacts(t, out, "the printed turn")
	assert.NotContains(t, out, "sensitive_data_detected=", "the article's own contacts are no leak")
	assert.Contains(t, out, "su***************om", "the answer quotes the address, masked")
	assert.Contains(t, out, "answer checked: passed")

	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	out, _, err = run(t, "ask", "--kb", kbDir, "--cache-dir", cache, "--json", "--trace", trace, question)
	require.NoError(t, err)
	assertNoContacts(t, out, "the --json result")
	var res contracts.StructuredResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotNil(t, res.Verdict)
	assert.Equal(t, contracts.VerdictPass, res.Verdict.Verdict)
	require.NotEmpty(t, res.Evidence)
	assert.Contains(t, res.Evidence[0].Snippet, "su***************om", "the evidence is kept, masked")

	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	assertNoContacts(t, string(data), "the trace file")
	lines := 0
	for sc := bufio.NewScanner(bytes.NewReader(data)); sc.Scan(); lines++ {
		assert.True(t, json.Valid(sc.Bytes()), "trace line %d is not JSON", lines+1)
	}
	assert.Greater(t, lines, 2, "every model call is traced")
	assert.Contains(t, string(data), "+1***********00", "the tool results are traced, masked")
}

// output.unmasked_evidence shows what the knowledge base holds as it holds
// it: the evidence, and its contacts where the answer quotes them.
func TestAskShowsEvidenceUnmaskedOnlyWhenConfigured(t *testing.T) {
	kbDir := contactKB(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("output:\n  unmasked_evidence: true\n"), 0o644))
	out, _, err := run(t, "--config", cfg, "ask", "--kb", kbDir, "--cache-dir", filepath.Join(kbDir, ".c"), "--json",
		"How do I contact the support team?")
	require.NoError(t, err)
	var res contracts.StructuredResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotEmpty(t, res.Evidence)
	assert.Contains(t, res.Evidence[0].Snippet, "support@example.com")
	assert.Contains(t, res.Answer, "support@example.com", "the knowledge base's own address, as written")
}

// TestAskRole: --role reaches the query policy, which denies a role the
// request types configured for it before any search (policy_check).
func TestAskRole(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("guardian:\n  policy:\n    denied_request_types: {guest: [HOWTO_POLICY]}\n"), 0o600))
	ask := func(role string) string {
		out, _, err := run(t, "--config", cfg, "ask", "--json", "--role", role, "--cache-dir", docsCache, "How do I configure the safety guard?")
		require.NoError(t, err)
		return out
	}
	guest := ask("guest")
	assert.Contains(t, guest, `"verdict": "FAIL"`)
	assert.Contains(t, guest, "permission_denied(role=guest,request_type=HOWTO_POLICY)")
	assert.Contains(t, guest, `"query_traces": []`, "the role is refused before any search")
	assert.Contains(t, ask("admin"), `"verdict": "PASS"`)
}
