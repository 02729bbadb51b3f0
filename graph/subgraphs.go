package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// withSubgraphs splits a snapshot whose Next lies inside subgraphs by
// graph (WithSubgraphs). A subgraph writes its checkpoints into its
// parent's thread, with its nodes' paths, so the thread's latest
// checkpoint is the innermost graph's; each graph on the way gets the
// state its subgraph node started on, from the checkpoint written before
// that node, which the chain of parents leads back to.
func (r *Runnable[S]) withSubgraphs(ctx context.Context, snap Snapshot[S]) (Snapshot[S], error) {
	return r.split(ctx, snap, snap.Checkpoint, "")
}

// split fills view (the snapshot of the graph at namespace ns, its Next
// relative to ns) with its subgraphs' snapshots; latest is the thread's
// checkpoint the walk back starts from.
func (r *Runnable[S]) split(ctx context.Context, view Snapshot[S], latest checkpoint.Checkpoint, ns string) (Snapshot[S], error) {
	var next, subs []string
	inner := map[string][]string{}
	for _, p := range view.Next {
		first, rest, deeper := strings.Cut(p, "/")
		if !slices.Contains(next, first) {
			next = append(next, first)
		}
		if deeper {
			if !slices.Contains(subs, first) {
				subs = append(subs, first)
			}
			inner[first] = append(inner[first], rest)
		}
	}
	if len(subs) == 0 {
		return view, nil
	}
	childState := view.State
	for _, sub := range subs {
		childNS := joinPath(ns, sub)
		child := Snapshot[S]{Checkpoint: view.Checkpoint, State: childState, Namespace: childNS}
		child.Next = inner[sub]
		child.Interrupts, child.Branches = nil, nil
		for _, in := range view.Interrupts {
			if rel, ok := strings.CutPrefix(in.Node, sub+"/"); ok {
				in.Node = rel
				child.Interrupts = append(child.Interrupts, in)
			}
		}
		for _, b := range view.Branches {
			if rel, ok := strings.CutPrefix(b.Node, sub+"/"); ok {
				b.Node = rel
				b.Join = strings.TrimPrefix(b.Join, sub+"/")
				child.Branches = append(child.Branches, b)
			}
		}
		child, err := r.split(ctx, child, latest, childNS)
		if err != nil {
			return view, err
		}
		view.Subgraphs = append(view.Subgraphs, child)
		started, err := r.entered(ctx, latest, childNS)
		if err != nil {
			return view, err
		}
		if view.State, err = r.codec.Decode(started); err != nil {
			return view, err
		}
	}
	view.Next = next
	return view, nil
}

// entered walks back from cp to the checkpoint written before the node at
// path: the state that subgraph node started on.
func (r *Runnable[S]) entered(ctx context.Context, cp checkpoint.Checkpoint, path string) (checkpoint.Checkpoint, error) {
	for {
		if len(cp.Next) == 1 && cp.Next[0] == path && len(cp.Branches) == 0 && cp.ID != "" {
			return cp, nil
		}
		if cp.Parent == "" {
			return cp, fmt.Errorf("graph %s: thread %q: no checkpoint before subgraph node %q", r.g.name, cp.Thread, path)
		}
		var err error
		cp, err = r.load(ctx, cp.Thread, cp.Parent)
		if errors.Is(err, checkpoint.ErrNotFound) {
			return cp, fmt.Errorf("graph %s: the checkpoint before subgraph node %q was removed (retention): %w", r.g.name, path, err)
		}
		if err != nil {
			return cp, err
		}
	}
}
