package safety

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// labelled is one message of tests/testdata/safety_labelled.jsonl: the
// fields of a training example.
type labelled = Example

func loadLabelled(t testing.TB, name string) []labelled {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "tests", "testdata", name))
	require.NoError(t, err)
	defer f.Close()
	var set []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var l labelled
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "line %d", n)
		set = append(set, l)
	}
	require.NoError(t, sc.Err())
	return set
}

var levels = []contracts.SafetyLevel{contracts.LevelSafe, contracts.LevelControversial, contracts.LevelUnsafe}

// TestLabelledSet measures the rules classifier on the labelled sets and
// prints precision and recall per level with the confusion matrix. A
// benign look-alike refused (Unsafe), more than one in twenty flagged
// (about the ceilings docs/eval.md sets on these sets' held-out parts,
// 0.05 and 0.06), any Unsafe message let through as Safe and any flagged
// message missing its expected category fail the test; the precision and
// recall of flagging must stay at 0.95 or above. A look-alike flagged
// Controversial is named in the log: the turn goes on, and the model that
// flags it is retrained on sets, not on it.
//
// safety_labelled.jsonl is the development set the lexicon was written
// against; safety_holdout.jsonl was written afterwards as a check on
// phrasings the lexicon had not seen.
func TestLabelledSet(t *testing.T) {
	r, err := NewDefaultRules()
	require.NoError(t, err)
	for _, tc := range []struct {
		file          string
		min, minAlike int
	}{{"safety_labelled.jsonl", 150, 60}, {"safety_holdout.jsonl", 50, 20}} {
		t.Run(tc.file, func(t *testing.T) {
			set := loadLabelled(t, tc.file)
			require.GreaterOrEqual(t, len(set), tc.min)
			measure(t, r, tc.file, set, tc.minAlike)
		})
	}
}

func measure(t *testing.T, r *Rules, file string, set []labelled, minAlike int) {
	confusion := map[contracts.SafetyLevel]map[contracts.SafetyLevel]int{}
	for _, l := range levels {
		confusion[l] = map[contracts.SafetyLevel]int{}
	}
	lookalikes, alikesFlagged := 0, 0
	for _, l := range set {
		m, err := r.Classify(context.Background(), l.Text)
		require.NoError(t, err)
		confusion[l.Level][m.Level]++
		if l.Lookalike {
			lookalikes++
			if m.Level != contracts.LevelSafe {
				alikesFlagged++
			}
		}
		switch {
		case l.Lookalike && m.Level == contracts.LevelUnsafe:
			t.Errorf("benign look-alike refused: %q (%v)", l.Text, m.Reasons)
		case l.Lookalike && m.Level != contracts.LevelSafe:
			t.Logf("benign look-alike flagged %s: %q (%v)", m.Level, l.Text, m.Reasons)
		case l.Level == contracts.LevelUnsafe && m.Level == contracts.LevelSafe:
			t.Errorf("unsafe message let through: %q", l.Text)
		case l.Level != m.Level:
			t.Logf("level %s, want %s: %q (%v)", m.Level, l.Level, l.Text, m.Reasons)
		}
		if m.Level != contracts.LevelSafe {
			for _, c := range l.Categories {
				if !slices.Contains(m.Categories, c) {
					t.Errorf("category %q missing for %q: got %v", c, l.Text, m.Categories)
				}
			}
		}
	}
	require.GreaterOrEqual(t, lookalikes, minAlike, "benign look-alikes in the set")
	assert.LessOrEqual(t, 20*alikesFlagged, lookalikes, "benign look-alikes flagged: %d of %d; at most one in twenty", alikesFlagged, lookalikes)

	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d messages (%d benign look-alikes)\n", file, len(set), lookalikes)
	fmt.Fprintf(&b, "%-14s %9s %9s %9s\n", "want \\ got", "Safe", "Controv.", "Unsafe")
	for _, want := range levels {
		fmt.Fprintf(&b, "%-14s %9d %9d %9d\n", want, confusion[want][levels[0]], confusion[want][levels[1]], confusion[want][levels[2]])
	}
	// The levels' own figures are printed; the floors are on flagging (not
	// Safe), since the guard is Unsafe only when it is sure (combine).
	for _, l := range levels {
		tp, predicted, actual := confusion[l][l], 0, 0
		for _, o := range levels {
			predicted += confusion[o][l]
			actual += confusion[l][o]
		}
		fmt.Fprintf(&b, "%-14s precision %.3f (%d/%d)  recall %.3f (%d/%d)\n", l, ratio(tp, predicted), tp, predicted, ratio(tp, actual), tp, actual)
	}
	tp, fp, fn := 0, 0, 0
	for _, want := range levels {
		for _, got := range levels {
			switch n := confusion[want][got]; {
			case want != contracts.LevelSafe && got != contracts.LevelSafe:
				tp += n
			case got != contracts.LevelSafe:
				fp += n
			case want != contracts.LevelSafe:
				fn += n
			}
		}
	}
	p, rc := ratio(tp, tp+fp), ratio(tp, tp+fn)
	fmt.Fprintf(&b, "flagged        precision %.3f (%d/%d)  recall %.3f (%d/%d)\n", p, tp, tp+fp, rc, tp, tp+fn)
	if p < 0.95 || rc < 0.95 {
		t.Errorf("flagged: precision %.3f, recall %.3f; both must be at least 0.95", p, rc)
	}
	t.Log("\n" + b.String())
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
