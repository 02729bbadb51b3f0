package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/sgrtest"
)

// The knowledge base's personal data, and how each value reads masked.
var sensitive = map[string]string{
	"support@example.com": "su***************om",
	"+1 415 555 0100":     "+1***********00",
	"4111 1111 1111 1111": "41***************11",
}

const contactText = "Write to support@example.com or call +1 415 555 0100. Refunds go to card 4111 1111 1111 1111."

// contactSearch is a knowledge base whose articles hold personal data.
type contactSearch struct{}

func (contactSearch) Search(q string, _ int) (kb.Result, error) {
	return kb.Result{Query: q, Articles: []contracts.Article{
		{KBID: "contact", Title: "Contacting support", Score: 0.9, Chunks: []contracts.Chunk{{ID: "contact#0", Text: contactText, Score: 0.9}}},
		{KBID: "hours", Title: "Support hours", Score: 0.8, Chunks: []contracts.Chunk{{ID: "hours#0", Text: "Support answers on weekdays.", Score: 0.8}}},
	}}, nil
}

func planJSON(question string) string {
	p := contracts.SGRPlan{SpamScore: 0.05, SpamReason: "on topic", UserIntent: question, Topic: "support contact",
		Category: "account", RequestType: contracts.RequestKnowledgeQA, AnswerLanguage: "en",
		Subqueries: []string{"support contact"}, IntentConfidence: 0.9, Action: contracts.ActionNormal}
	b, _ := json.Marshal(p)
	return string(b)
}

const question = "What is the support e-mail address?"

// leakingModel plans, searches, then answers every attempt by quoting the
// personal data, which the answer contract rejects.
func leakingModel() *sgrtest.ScriptedModel {
	draft := sgrtest.Chunks("Write to support@example.com ", "or call +1 415 555 0100 [1].")
	return sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", planJSON(question)),
		sgrtest.ToolCall("search_kb", `{"query":"support contact"}`),
		draft, draft, draft,
	)
}

func newAgent(t *testing.T, o agent.Options, edit ...func(*config.Config)) *agent.Agent {
	t.Helper()
	cfg := config.Default()
	cfg.KB.CacheDir = t.TempDir()
	for _, e := range edit {
		e(&cfg)
	}
	a, err := agent.New(context.Background(), cfg, o)
	require.NoError(t, err)
	t.Cleanup(func() { a.Close() })
	return a
}

// assertMasked fails if text holds any raw value.
func assertMasked(t *testing.T, text, what string) {
	t.Helper()
	for raw := range sensitive {
		assert.NotContains(t, text, raw, "%s holds %s", what, raw)
	}
}

func TestStreamShowsNoDraftTheGuardianRejects(t *testing.T) {
	a := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}})
	evs, wait := a.Stream(context.Background(), agent.Turn{SessionID: "s", Message: question, QueryTraces: true})
	var verdicts []contracts.VerdictKind
	for ev := range evs {
		assert.NotEqual(t, contracts.EventToken, ev.Kind, "a token of a rejected draft reached the stream: %q", ev.Text)
		if ev.Kind == contracts.EventVerdict {
			verdicts = append(verdicts, ev.Verdict.Verdict)
		}
		line, err := json.Marshal(ev)
		require.NoError(t, err)
		assertMasked(t, string(line), "event "+string(ev.Kind))
	}
	res, err := wait()
	require.NoError(t, err)
	assert.Equal(t, []contracts.VerdictKind{contracts.VerdictRetry, contracts.VerdictRetry, contracts.VerdictFail}, verdicts)
	assert.Contains(t, res.Verdict.Reasons, "sensitive_data_detected=[email phone]")
	assert.NotContains(t, res.Answer, "Write to", "the refusal, not the draft, is the answer")

	printed, err := json.Marshal(res)
	require.NoError(t, err)
	assertMasked(t, string(printed), "the result")
	require.NotEmpty(t, res.Evidence)
	assert.Contains(t, res.Evidence[0].Snippet, sensitive["support@example.com"], "the evidence is there, masked")
	assert.Contains(t, res.QueryTraces[0].Articles[0].Chunks[0].Text, sensitive["4111 1111 1111 1111"])
}

func TestStreamReleasesAPassedAnswerAfterItsVerdict(t *testing.T) {
	m := sgrtest.NewScriptedModel(
		sgrtest.ToolCall("analyse_user_request", planJSON(question)),
		sgrtest.ToolCall("search_kb", `{"query":"support contact"}`),
		sgrtest.Chunks("Write to the support address ", "or call support [1]."),
	)
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}})
	evs, wait := a.Stream(context.Background(), agent.Turn{SessionID: "s", Message: question})
	var tokens strings.Builder
	passed := false
	for ev := range evs {
		switch ev.Kind {
		case contracts.EventToken:
			assert.True(t, passed, "token %q came before the PASS verdict", ev.Text)
			tokens.WriteString(ev.Text)
		case contracts.EventVerdict:
			passed = ev.Verdict.Verdict == contracts.VerdictPass
		}
	}
	res, err := wait()
	require.NoError(t, err)
	require.Equal(t, contracts.VerdictPass, res.Verdict.Verdict)
	assert.Equal(t, "Write to the support address or call support [1].", tokens.String(), "the passed draft, whole, once")
	assert.True(t, strings.HasPrefix(res.Answer, tokens.String()))
}

func TestRunMasksUnlessEvidenceIsAskedUnmasked(t *testing.T) {
	unmasked := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}},
		func(c *config.Config) { c.Output.UnmaskedEvidence = true })
	res, err := unmasked.Run(context.Background(), agent.Turn{SessionID: "s", Message: question, QueryTraces: true})
	require.NoError(t, err)
	assert.Equal(t, contactText, res.Evidence[0].Snippet, "output.unmasked_evidence keeps the evidence as found")
	assert.Equal(t, contactText, res.QueryTraces[0].Articles[0].Chunks[0].Text)
	assert.Equal(t, contactText, res.Articles[0].Chunks[0].Text)
	rest := res
	rest.Evidence, rest.QueryTraces, rest.Articles = nil, nil, nil
	printed, err := json.Marshal(rest)
	require.NoError(t, err)
	assertMasked(t, string(printed), "the result outside the evidence")

	masked := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}})
	res, err = masked.Run(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	assert.Equal(t, "Write to su***************om or call +1***********00. Refunds go to card 41***************11.", res.Evidence[0].Snippet)
}

func TestRunStateKeepsTheStateWhole(t *testing.T) {
	a := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}})
	s, err := a.RunState(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	assert.Equal(t, contactText, s.Evidence[0].Snippet, "the nodes work on what the knowledge base holds")
	res := agent.Masked(a.Result(s), config.Output{})
	assert.NotEqual(t, contactText, res.Evidence[0].Snippet)
	assert.Equal(t, contactText, s.Evidence[0].Snippet, "masking a result leaves the state alone")
}

func TestTraceIsMasked(t *testing.T) {
	var trace bytes.Buffer
	m := leakingModel()
	a := newAgent(t, agent.Options{Model: m, Searcher: contactSearch{}, Trace: &trace})
	_, err := a.Run(context.Background(), agent.Turn{SessionID: "s", Message: question})
	require.NoError(t, err)
	assertMasked(t, trace.String(), "the trace")
	assert.Contains(t, trace.String(), sensitive["support@example.com"], "the tool results are traced, masked")
	var sawRaw bool
	for _, r := range m.Requests() {
		for _, msg := range r.Messages {
			sawRaw = sawRaw || strings.Contains(msg.Content, "support@example.com")
		}
	}
	assert.True(t, sawRaw, "the model itself gets the text as found")
}

func TestSearchIsMaskedUnlessEvidenceIsAskedUnmasked(t *testing.T) {
	dir := t.TempDir()
	article := "---\ntitle: Contacting support\nkb_id: contact\ntags: [support]\n---\n# Contacting support\n\n" + contactText + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "contact.md"), []byte(article), 0o600))
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{Dir: dir, CacheDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { k.Index.Close() })
	for unmasked, want := range map[bool]string{false: sensitive["support@example.com"], true: "support@example.com"} {
		a := newAgent(t, agent.Options{Knowledge: k}, func(c *config.Config) { c.Output.UnmaskedEvidence = unmasked })
		res, err := a.Search(context.Background(), "support refunds card", 3)
		require.NoError(t, err)
		require.NotEmpty(t, res.Articles)
		require.NotEmpty(t, res.Articles[0].Chunks)
		assert.Contains(t, res.Articles[0].Chunks[0].Text, want, "output.unmasked_evidence: %t", unmasked)
	}
	none := newAgent(t, agent.Options{Model: sgrtest.NewScriptedModel(), Searcher: contactSearch{}})
	_, err = none.Search(context.Background(), "support", 3)
	assert.ErrorIs(t, err, agent.ErrNoKnowledge)
}

func TestThreadsWithoutAStoreAreErrNoStore(t *testing.T) {
	a := newAgent(t, agent.Options{Model: leakingModel(), Searcher: contactSearch{}})
	_, err := a.Run(context.Background(), agent.Turn{SessionID: "s", Message: question, Thread: "t1"})
	assert.ErrorIs(t, err, agent.ErrNoStore)
	_, err = a.LockThread(context.Background(), "t1", "me")
	assert.ErrorIs(t, err, agent.ErrNoStore)
	_, err = a.Record(context.Background(), "t1", agent.RecordOptions{})
	assert.ErrorIs(t, err, agent.ErrNoStore)
}

// TestAnAnswerMayQuoteWhatTheKnowledgeBasePublishes: a help centre's own
// support address is an answer, not a leak. The Guardian passes a draft
// that quotes it, and output.unmasked_evidence shows it as written; a
// customer's address in the same place still fails.
func TestAnAnswerMayQuoteWhatTheKnowledgeBasePublishes(t *testing.T) {
	dir := t.TempDir()
	article := "---\ntitle: Contacting support\nkb_id: contact\n---\n# Contacting support\n\nWrite to support@example.com on weekdays.\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "contact.md"), []byte(article), 0o600))
	k, err := agent.OpenKnowledge(context.Background(), kb.Config{Dir: dir, CacheDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { k.Index.Close() })
	answering := func(draft string) *sgrtest.ScriptedModel {
		return sgrtest.NewScriptedModel(
			sgrtest.ToolCall("analyse_user_request", planJSON(question)),
			sgrtest.ToolCall("search_kb", `{"query":"support contact"}`),
			sgrtest.Chunks(draft), sgrtest.Chunks(draft), sgrtest.Chunks(draft),
		)
	}
	const quoted = "Write to support@example.com on weekdays [1]."
	tests := []struct {
		name     string
		draft    string
		unmasked bool
		verdicts []contracts.VerdictKind
		answer   string // what the answer holds
	}{
		{"the published address, masked by default", quoted, false, []contracts.VerdictKind{contracts.VerdictPass}, sensitive["support@example.com"]},
		{"the published address, shown with unmasked_evidence", quoted, true, []contracts.VerdictKind{contracts.VerdictPass}, "support@example.com"},
		{"a customer's address fails whatever the setting", "Write to ivan@example.com [1].", true,
			[]contracts.VerdictKind{contracts.VerdictRetry, contracts.VerdictRetry, contracts.VerdictFail}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAgent(t, agent.Options{Knowledge: k, Model: answering(tc.draft)}, func(c *config.Config) { c.Output.UnmaskedEvidence = tc.unmasked })
			evs, wait := a.Stream(context.Background(), agent.Turn{SessionID: "s", Message: question})
			var verdicts []contracts.VerdictKind
			var tokens strings.Builder
			for ev := range evs {
				switch ev.Kind {
				case contracts.EventVerdict:
					verdicts = append(verdicts, ev.Verdict.Verdict)
				case contracts.EventToken:
					tokens.WriteString(ev.Text)
				}
			}
			res, err := wait()
			require.NoError(t, err)
			assert.Equal(t, tc.verdicts, verdicts)
			assert.NotContains(t, res.Answer, "ivan@example.com")
			assert.NotContains(t, tokens.String(), "ivan@example.com")
			if tc.answer != "" {
				assert.Contains(t, res.Answer, tc.answer)
				assert.Contains(t, tokens.String(), tc.answer, "the streamed answer is masked as the result is")
			}
			if !tc.unmasked {
				assert.NotContains(t, res.Answer, "support@example.com")
			}
		})
	}
}
