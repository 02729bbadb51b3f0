package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/docs"
	"github.com/sgrgraph/sgrgraph/kb"
	"github.com/sgrgraph/sgrgraph/models/offline"
)

// offTopicCase is one knowledge base with the sets that are on-topic for
// it and those that are off-topic (testdata/offtopic/README.md).
type offTopicCase struct {
	kb       string   // a folder of testdata/kbs, or "" for the embedded documentation
	on, off  []string // files of testdata/offtopic
	offLeave []string // domains of the off files that are neither on- nor off-topic here
}

var offTopicCases = map[string]offTopicCase{
	"outdoor": {kb: "outdoor", on: []string{"ontopic_outdoor"},
		off: []string{"clinc150", "banking77", "smalltalk", "sms_spam", "marketing", "other_ru"}},
	// A bank answers questions of banking and credit cards, and of travel
	// and work (exchange rates, travel notices, direct deposit, taxes):
	// CLINC150 puts them in other domains, so they are left out here.
	"bank": {kb: "bank", on: []string{"ontopic_bank"},
		off: []string{"clinc150", "smalltalk", "sms_spam", "marketing", "other_ru"}, offLeave: []string{"banking", "credit_cards", "travel", "work"}},
	"docs": {on: []string{"ontopic_docs"},
		off: []string{"clinc150", "banking77", "smalltalk", "sms_spam", "marketing", "other_ru"}},
}

// TestOffTopicScore: with the shipped threshold 0.7 the offline engine's
// spam/off-topic score blocks at most 2% of the questions a knowledge base
// answers and at least 90% of clearly off-topic ones (other domains,
// small talk, advertising and scams), for each test knowledge base.
// Greetings and thanks are never blocked.
func TestOffTopicScore(t *testing.T) {
	names := []string{"outdoor", "bank", "docs"}
	for _, name := range names {
		c := offTopicCases[name]
		t.Run(name, func(t *testing.T) {
			e := offline.New(offline.Options{Corpus: corpusOf(t, c.kb), Product: name, Language: "en"})
			on := scores(t, e, c.on, nil)
			off := scores(t, e, c.off, c.offLeave)
			onBlocked, offBlocked := blocked(on), blocked(off)
			t.Logf("%-8s ROC-AUC %.3f  on-topic blocked %5.1f%% (%d)  off-topic blocked %5.1f%% (%d)",
				name, rocAUC(off, on), 100*onBlocked, len(on), 100*offBlocked, len(off))
			// At most 2%, or one question of a set under fifty: the docs set has 42, where one is 2.4%.
			if onBlocked > 0.02 && onBlocked*float64(len(on)) > 1 {
				t.Errorf("%.1f%% of on-topic questions blocked, want at most 2%% (or one): %v", 100*onBlocked, worst(on, true))
			}
			if offBlocked < 0.90 {
				t.Errorf("%.1f%% of off-topic requests blocked, want at least 90%%: %v", 100*offBlocked, worst(off, false))
			}
			casual := scores(t, e, []string{"casual"}, nil)
			if b := blocked(casual); b > 0 {
				t.Errorf("%.0f%% of greetings and thanks blocked: %v", 100*b, worst(casual, true))
			}
		})
	}
}

type scored struct {
	text  string
	score float64
}

func scores(t *testing.T, e *offline.Engine, files, leave []string) []scored {
	var out []scored
	for _, f := range files {
		for _, l := range readLines(t, filepath.Join("testdata/offtopic", f+".jsonl")) {
			if slices.Contains(leave, l.Domain) {
				continue
			}
			out = append(out, scored{l.Text, planOf(t, e, l.Text).SpamScore})
		}
	}
	return out
}

type labelled struct {
	Text   string `json:"text"`
	Domain string `json:"domain"`
}

func readLines(t *testing.T, path string) []labelled {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l labelled
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), path)
		out = append(out, l)
	}
	require.NoError(t, sc.Err())
	return out
}

// corpusOf is the knowledge base's text as the agent gives it to the
// engine: one string an article.
func corpusOf(t *testing.T, dir string) []string {
	var found []kb.Doc
	var errs []error
	if dir == "" {
		found, errs = kb.LoadFSContext(context.Background(), docs.FS, ".")
	} else {
		found, errs = kb.LoadDir(filepath.Join("testdata/kbs", dir))
	}
	require.Empty(t, errs)
	out := make([]string, len(found))
	for i, d := range found {
		out[i] = d.Title + "\n" + d.Text()
	}
	return out
}

func planOf(t *testing.T, e *offline.Engine, text string) contracts.SGRPlan {
	msg, err := e.Generate(context.Background(), []*schema.Message{schema.UserMessage(text)},
		model.WithTools([]*schema.ToolInfo{{Name: "analyse_user_request"}}), model.WithToolChoice(schema.ToolChoiceForced))
	require.NoError(t, err)
	require.Len(t, msg.ToolCalls, 1)
	var p contracts.SGRPlan
	require.NoError(t, json.Unmarshal([]byte(msg.ToolCalls[0].Function.Arguments), &p))
	return p
}

func blocked(s []scored) float64 {
	n := 0
	for _, x := range s {
		if x.score >= 0.7 {
			n++
		}
	}
	return float64(n) / float64(len(s))
}

// rocAUC is the probability that a random positive scores above a random
// negative, ties counting half.
func rocAUC(pos, neg []scored) float64 {
	sum := 0.0
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p.score > n.score:
				sum++
			case p.score == n.score:
				sum += 0.5
			}
		}
	}
	return sum / float64(len(pos)*len(neg))
}

// worst names the five requests furthest on the wrong side of the threshold.
func worst(s []scored, high bool) string {
	s = append([]scored(nil), s...)
	sort.SliceStable(s, func(i, j int) bool { return (s[i].score > s[j].score) == high })
	var b strings.Builder
	for i := 0; i < len(s) && i < 5; i++ {
		fmt.Fprintf(&b, "\n  %.2f %q", s[i].score, s[i].text)
	}
	return b.String()
}
