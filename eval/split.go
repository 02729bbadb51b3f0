package eval

import "github.com/sgrgraph/sgrgraph/eval/split"

// Part is the side of a set an item falls on (see package split).
type Part = split.Part

// The two parts of every set (docs/eval.md, "Development and held-out parts").
const (
	PartDev     = split.Dev
	PartHeldOut = split.HeldOut
)

// Parts lists the parts in report order.
var Parts = []Part{PartDev, PartHeldOut}

// PartOf is the part of a row key (split.Of).
func PartOf(key string) Part { return split.Of(key) }

// Key is the stable key that places the item in its part: its id, else its
// group, else its pair, else its message (split.Key).
func (it Item) Key() string { return split.Key(it.ID, it.Group, it.Pair, it.Message()) }

// Part is the part the item falls in.
func (it Item) Part() Part { return split.Of(it.Key()) }

// Only is the set with the items of one part alone, their lines kept.
func (s Set) Only(p Part) Set {
	out := Set{Name: s.Name, Dir: s.Dir}
	for _, it := range s.Items {
		if it.Part() == p {
			out.Items = append(out.Items, it)
		}
	}
	return out
}
