package safety

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Classifier classifies one user message. Providers that call a service
// return an error when it fails; the caller records level Unknown and
// decision table DT-001 decides what that means.
type Classifier interface {
	Classify(ctx context.Context, text string) (contracts.Moderation, error)
}

// ProviderRules is the name of the offline lexicon classifier.
const ProviderRules = "rules"

const defaultWindow = 4

// Rules is the offline classifier: a lexicon of word patterns run over the
// normalised message. It is safe for concurrent use.
type Rules struct {
	entries  []rule
	terms    *regexp.Regexp // see flatTerms
	triggers *triggerIndex  // which entries' triggers may match a message
}

type rule struct {
	Entry
	trigger *regexp.Regexp   // unanchored, finds candidate words anywhere
	near    []*regexp.Regexp // one per group, anchored at a word start
	unless  *regexp.Regexp   // anchored at a word start; nil when none
	flat    flatRule         // the same, inside letters spaced out (flat.go)
}

var _ Classifier = (*Rules)(nil)

// NewRules compiles a lexicon into a classifier.
func NewRules(lex Lexicon) (*Rules, error) {
	if err := lex.Validate(); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	r := &Rules{terms: flatTerms(lex)}
	var triggers []string
	for _, e := range lex.Entries {
		if e.Window == 0 {
			e.Window = defaultWindow
		}
		trigger := ` (?:` + alternation(e.Match) + `)`
		triggers = append(triggers, trigger)
		c := rule{Entry: e, trigger: regexp.MustCompile(trigger), flat: compileFlat(e)}
		for _, group := range e.Near {
			c.near = append(c.near, regexp.MustCompile(`^(?:`+alternation(group)+`)`))
		}
		if len(e.Unless) > 0 {
			c.unless = regexp.MustCompile(`^(?:` + alternation(e.Unless) + `)`)
		}
		r.entries = append(r.entries, c)
	}
	r.triggers = newTriggerIndex(triggers)
	return r, nil
}

// NewDefaultRules is the classifier over the embedded lexicon.
func NewDefaultRules() (*Rules, error) {
	lex, err := DefaultLexicon()
	if err != nil {
		return nil, err
	}
	return NewRules(lex)
}

func alternation(patterns []string) string {
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		parts[i] = "(?:" + p + ")"
	}
	return strings.Join(parts, "|")
}

// Classify returns level Safe with category None when no entry fires in any
// reading of the normalised message nor inside its runs of spelled-out
// letters (flat.go), else the highest level of the entries that fired and
// their categories. Raw holds the verdict in Qwen3Guard's text format;
// Reasons names each entry and the words that fired it.
func (r *Rules) Classify(ctx context.Context, text string) (contracts.Moderation, error) {
	if err := ctx.Err(); err != nil {
		return contracts.Moderation{}, err
	}
	pieces := split(text)
	texts := readPieces(pieces)
	flat, spelled := flatReading(pieces)
	starts := make([][]int, len(texts))
	for i, t := range texts {
		starts[i] = wordStarts(t)
	}
	level := contracts.LevelSafe
	found := map[string]bool{}
	var reasons []string
	may := r.triggers.mayMatch(texts)
	for i, e := range r.entries {
		hit, ok := "", false
		if may[i] {
			hit, ok = e.fireAny(texts, starts)
		}
		if !ok && spelled {
			hit, ok = e.fireFlat(flat, r.terms)
		}
		if !ok {
			continue
		}
		found[e.Category] = true
		reasons = append(reasons, fmt.Sprintf("%s: %q", e.ID, hit))
		if e.Level == contracts.LevelUnsafe || level == contracts.LevelSafe {
			level = e.Level
		}
	}
	m := contracts.Moderation{Level: level, Provider: ProviderRules, Reasons: reasons}
	for _, c := range categories {
		if found[c] {
			m.Categories = append(m.Categories, c)
		}
	}
	if len(m.Categories) == 0 {
		m.Categories = []string{contracts.CategoryNone}
	}
	m.Raw = "Safety: " + string(level) + "\nCategories: " + strings.Join(m.Categories, ", ")
	return m, nil
}

// fireAny is fire over each reading of the message in turn.
func (e rule) fireAny(texts []string, starts [][]int) (string, bool) {
	for i, t := range texts {
		if hit, ok := e.fire(t, starts[i]); ok {
			return hit, true
		}
	}
	return "", false
}

// fire reports the first trigger of e that has its near groups and no
// benign context around it, with the words that triggered.
func (e rule) fire(norm string, starts []int) (string, bool) {
	for _, loc := range e.trigger.FindAllStringIndex(norm, -1) {
		first := sort.SearchInts(starts, loc[0]+1)  // the word the trigger starts at
		last := sort.SearchInts(starts, loc[1]) - 1 // the word it ends in
		lo, hi := max(0, first-e.Window), min(len(starts)-1, last+e.Window)
		if e.unless != nil && e.anyAt(e.unless, norm, starts, lo, hi, -1) {
			continue
		}
		ok := true
		for _, near := range e.near {
			if !e.anyAt(near, norm, starts, lo, hi, first) {
				ok = false
				break
			}
		}
		if ok {
			return strings.TrimSpace(norm[loc[0]:loc[1]]), true
		}
	}
	return "", false
}

// anyAt reports whether re matches at the start of a word in [lo, hi]
// other than word skip. Near skips the trigger's own first word; unless does
// not, so "steals focus" can cancel its own "steal".
func (e rule) anyAt(re *regexp.Regexp, norm string, starts []int, lo, hi, skip int) bool {
	for w := lo; w <= hi; w++ {
		if w != skip && re.MatchString(norm[starts[w]:]) {
			return true
		}
	}
	return false
}

// wordStarts lists the byte offsets where the words of a normalised text begin.
func wordStarts(norm string) []int {
	var starts []int
	for i := 0; i+1 < len(norm); i++ {
		if norm[i] == ' ' && norm[i+1] != ' ' {
			starts = append(starts, i+1)
		}
	}
	return starts
}
