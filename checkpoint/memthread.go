package checkpoint

import (
	"cmp"
	"slices"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint/internal/rules"
)

// find returns the position of id in th.list, or -1.
func (th *memThread) find(id string) int {
	seq, ok := th.seqs[id]
	if !ok {
		return -1
	}
	i, _ := slices.BinarySearchFunc(th.list, seq, func(e memEntry, seq int64) int { return cmp.Compare(e.seq, seq) })
	return i
}

// prune drops the entries r does not retain and says how many.
func (th *memThread) prune(r Retention, now time.Time) int {
	times := make([]time.Time, len(th.list))
	for i, e := range th.list {
		times[len(th.list)-1-i] = e.cp.Metadata.Time // newest first
	}
	drop := map[int]bool{}
	for _, i := range rules.Expired(times, r.KeepLast, r.MaxAge, now) {
		drop[len(th.list)-1-i] = true
	}
	kept := th.list[:0]
	for i, e := range th.list {
		if drop[i] {
			delete(th.seqs, e.cp.ID)
			for _, h := range e.manifest {
				if p := th.pieces[h]; p != nil {
					if p.refs--; p.refs <= 0 {
						delete(th.pieces, h)
					}
				}
			}
		} else {
			kept = append(kept, e)
		}
	}
	th.list = kept
	return len(drop)
}

// clone deep-copies the slices of cp. Empty slices become nil, as they read
// back from the JSON header of the persistent stores.
func clone(cp Checkpoint) Checkpoint {
	cp.Next = cloneOrNil(cp.Next)
	cp.Interrupts = cloneOrNil(cp.Interrupts)
	for i := range cp.Interrupts {
		cp.Interrupts[i].Payload = cloneOrNil(cp.Interrupts[i].Payload)
		cp.Interrupts[i].Value = cloneOrNil(cp.Interrupts[i].Value)
	}
	cp.Branches = cloneOrNil(cp.Branches)
	for i := range cp.Branches {
		cp.Branches[i].State = slices.Clone(cp.Branches[i].State)
	}
	cp.State = cloneOrNil(cp.State)
	return cp
}

func cloneOrNil[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// withoutState is cp as ListOptions.NoState returns it.
func withoutState(cp Checkpoint) Checkpoint {
	cp.State = nil
	for i := range cp.Branches {
		cp.Branches[i].State = nil
	}
	return cp
}
