package memory

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/memory/internal/rules"
	"github.com/sgrgraph/sgrgraph/memory/internal/text"
)

// Validate names the first field of q outside its limits.
func (q Query) Validate() error {
	return rules.Query(q.Prefix, q.Filter, q.Text, q.Limit, q.Offset)
}

// Validate names the first field of o outside its limits.
func (o ListOptions) Validate() error {
	if err := rules.Prefix("prefix", o.Prefix); err != nil {
		return err
	}
	return rules.Page(o.Limit, o.Offset)
}

// Apply is Search over candidate items, for the stores: it keeps the live
// items under q.Prefix that match q.Filter and q.Text, orders them (best
// Score, then most recently updated, then by namespace and key) and pages
// them. Every store hands it the live items under the prefix, so they all
// answer alike.
func (q Query) Apply(items []Item) ([]Item, error) {
	match, err := q.matcher()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	var out []Item
	for _, it := range items {
		live := it.Expires.IsZero() || it.Expires.After(now)
		if !live || !rules.Under(it.Namespace, q.Prefix) {
			continue
		}
		if ok, score := match(it.Value); ok {
			it.Score = score
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b Item) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), b.Updated.Compare(a.Updated),
			strings.Compare(rules.Encode(a.Namespace), rules.Encode(b.Namespace)), strings.Compare(a.Key, b.Key))
	})
	return Page(out, q.Limit, q.Offset), nil
}

// Page returns the items from offset, at most limit of them (0:
// DefaultLimit), for the stores that page in Go.
func Page[T any](xs []T, limit, offset int) []T {
	if limit == 0 {
		limit = DefaultLimit
	}
	if offset >= len(xs) {
		return []T{}
	}
	return xs[offset:min(len(xs), offset+limit)]
}

// matcher returns the test of a value against q's filter and text, and its
// score. A text of stop words only matches nothing, as in the knowledge base.
func (q Query) matcher() (func(json.RawMessage) (bool, float64), error) {
	want, err := scalars(q.Filter)
	if err != nil {
		return nil, err
	}
	var words *text.Query
	if strings.TrimSpace(q.Text) != "" {
		p, err := text.Parse(q.Text)
		if err != nil {
			return nil, fmt.Errorf("text: %w", err)
		}
		words = &p
	}
	return func(v json.RawMessage) (bool, float64) {
		if len(want) > 0 && !matches(v, want) {
			return false, 0
		}
		if words == nil {
			return true, 0
		}
		score := words.Score(strings.Join(stringsOf(v), "\n"))
		return score > 0, score
	}, nil
}
