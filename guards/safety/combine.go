package safety

import (
	"fmt"
	"slices"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// lexiconVerdict is what the lexicon found in a message.
type lexiconVerdict struct {
	level   contracts.SafetyLevel
	found   []string // categories of the entries that fired
	fired   []firing // the entries that fired, in the lexicon's order
	reasons []string
	// benign lists the categories of triggers that matched but were
	// cancelled by a benign context around them ("kill the hung process").
	benign []string
}

// firing is one lexicon entry that fired and the words that fired it.
type firing struct {
	entry, words string
}

// The model's thresholds on the probability that a message is not Safe.
const (
	// flagAt is where the model flags a message the lexicon let through.
	// Chosen on the held-out split and the sets it never saw, so its
	// figures there flatter it a little: at 0.65 the look-alikes flagged
	// near the 0.10 allowed (held-out 0.089); at 0.75 the recall falls
	// (SimpleSafetyTests 0.84, held-out 0.870).
	flagAt = 0.70
	// alsoAt: a category whose share of the flagged probability reaches
	// this is named too.
	alsoAt = 0.3
)

// combine is the one place the lexicon's verdict and the model's meet.
//
// The lexicon's patterns are precise: when an entry fires, its level and
// categories stand, and the model only adds the categories it is sure of
// (a jailbreak wrapped round a threat). When no entry fires, the model
// decides: it flags the message Unsafe when the probability that it is not
// Safe reaches flagAt, naming its likeliest category and any other with a
// large share. The lexicon's benign contexts still hold: when one cancelled
// a trigger ("kill" in "kill the hung process"), the model may not flag the
// message for that trigger's category (it may for another: a jailbreak); a message whose likeliest category is Politically Sensitive
// Topics is Controversial, as in the lexicon. Copyright is the lexicon's
// alone: the model learnt it from one narrow source (requests for lyrics and
// book passages), so a plain "generate" looks like it.
func combine(v lexiconVerdict, p [modelClasses]float64) lexiconVerdict {
	flagged := 1 - p[0]
	top := 1
	for c := 2; c < modelClasses; c++ {
		if p[c] > p[top] {
			top = c
		}
	}
	lexiconFired := v.level != contracts.LevelSafe
	if flagged < flagAt {
		return v
	}
	if !lexiconFired && (categories[top-1] == contracts.CategoryCopyright || slices.Contains(v.benign, categories[top-1])) {
		return v
	}
	added := false
	for c := 1; c < modelClasses; c++ {
		if (c == top || p[c] >= alsoAt*flagged) && !slices.Contains(v.found, categories[c-1]) {
			v.found, added = append(v.found, categories[c-1]), true
		}
	}
	if added || !lexiconFired {
		v.reasons = append(v.reasons, fmt.Sprintf("model: %s %.2f", categories[top-1], flagged))
	}
	if lexiconFired {
		return v
	}
	v.level = contracts.LevelUnsafe
	if categories[top-1] == contracts.CategoryPolitical {
		v.level = contracts.LevelControversial
	}
	return v
}
