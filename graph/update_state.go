package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// AsNode makes UpdateState count the update as the output of the named
// node (or START, as a run's input): the update is merged into the state
// as a node's output would be, and the thread's next node is the one the
// node's edges lead to from the merged state, its router deciding for a
// conditional edge. A pending interrupt is dropped: the node counts as
// done.
func AsNode(name string) RunOption {
	return func(o *runOptions) { o.asNode, o.hasAsNode = name, true }
}

// UpdateState edits a thread's state (LangGraph's update_state): it merges
// update into the latest checkpoint's state (or FromCheckpoint's, forking
// the thread there) with the reducers, as Invoke merges an input, and
// writes the result as a new checkpoint whose Parent is the one edited,
// with source "update". It returns that checkpoint's ID.
//
// Without AsNode the thread stays where it stood: the same next node and
// pending interrupts, now on the edited state (for a paused node, the
// state it runs again on). With AsNode the update is that node's output
// and the run goes on from its edges. Invoke or Stream with WithThread and
// the zero input then continue from the edit.
//
// A node in a parallel branch or a Send's run cannot be named: those runs
// write no checkpoint a run could go on from, so an update is laid over
// the fork (AsNode of the fork runs its branches again from the update). A
// thread paused in parallel branches takes an update only with AsNode.
func (r *Runnable[S]) UpdateState(ctx context.Context, update S, opts ...RunOption) (checkpointID string, err error) {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	if err := r.threaded(o.thread); err != nil {
		return "", err
	}
	base, err := r.load(ctx, o.thread, o.from)
	found := err == nil
	if err != nil && (o.from != "" || !errors.Is(err, checkpoint.ErrNotFound)) {
		return "", err
	}
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("graph %s: thread %q: update: %w", r.g.name, o.thread, err)
	}
	var state S
	if found {
		if state, err = r.codec.Decode(base); err != nil {
			return fail(err)
		}
	}
	merged, err := mergeInput(state, update)
	if err != nil {
		return fail(err)
	}
	data, version, err := r.codec.Encode(merged)
	if err != nil {
		return fail(err)
	}
	cp := checkpoint.Checkpoint{Thread: o.thread, Parent: base.ID, State: data,
		Metadata: checkpoint.Metadata{Node: base.Metadata.Node, Source: "update", Version: version}}
	if found {
		cp.Metadata.Step = base.Metadata.Step + 1
	}
	switch {
	case o.hasAsNode:
		cp.Metadata.Node = o.asNode
		if cp.Next, cp.Branches, err = r.after(ctx, o.asNode, merged, data); err != nil {
			return fail(err)
		}
	case len(base.Branches) > 0:
		return fail(fmt.Errorf("checkpoint %s is paused in %d parallel branches, each on its own state: say whose output the update is with AsNode (the fork's runs the branches again from it)",
			base.ID, len(base.Next)))
	default:
		cp.Next, cp.Interrupts = base.Next, withIDs(base.Interrupts)
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	saved, err := r.store.Put(sctx, cp)
	if err != nil {
		return fail(err)
	}
	return saved.ID, nil
}

// after is where a run goes once node returned s: the next node, or the
// parallel branches it starts (their heads run on s, a branch straight
// into a join arrives there). END is no next node.
func (r *Runnable[S]) after(ctx context.Context, node string, s S, data []byte) ([]string, []checkpoint.Branch, error) {
	p := r.plan
	switch {
	case node != START && r.g.nodes[node] == nil:
		return nil, nil, fmt.Errorf("AsNode(%q): no such node in graph %s", node, r.g.name)
	case p.inBranch[node] || p.sends[node] != "":
		return nil, nil, fmt.Errorf("AsNode(%q): the node runs in a parallel branch or a Send's run, where no checkpoint is written; name the node that starts them", node)
	}
	var targets []string
	add := func(to string) {
		if !slices.Contains(targets, to) {
			targets = append(targets, to)
		}
	}
	for _, e := range r.g.edges {
		if e.from == node {
			add(e.to)
		}
	}
	for _, b := range r.g.branches {
		if b.from != node {
			continue
		}
		rt, err := b.router.route(ctx, s)
		if err != nil {
			return nil, nil, fmt.Errorf("AsNode(%q): route: %w", node, err)
		}
		if len(rt.sends) > 0 {
			return nil, nil, fmt.Errorf("AsNode(%q): its router Sends, and a run cannot go on inside a Send's run", node)
		}
		for _, k := range rt.keys {
			to, ok := b.targets[k]
			if !ok {
				return nil, nil, fmt.Errorf("AsNode(%q): route: no target for %q", node, k)
			}
			add(to)
		}
	}
	switch {
	case len(targets) == 0:
		return nil, nil, fmt.Errorf("AsNode(%q): the node has no edge out", node)
	case len(targets) == 1 && targets[0] == END:
		return nil, nil, nil
	case len(targets) == 1 && !p.inBranch[targets[0]]:
		return targets, nil, nil
	}
	branches := []checkpoint.Branch{{Kind: checkpoint.BranchBase, Node: node, State: data}}
	var next []string
	for _, to := range targets {
		switch {
		case slices.Contains(p.joins[to], node):
			branches = append(branches, checkpoint.Branch{Kind: checkpoint.BranchArrived, Node: node, Join: to, State: data})
		case p.inBranch[to]:
			branches = append(branches, checkpoint.Branch{Kind: checkpoint.BranchPaused, Node: to, State: data})
			next = append(next, to)
		default:
			return nil, nil, fmt.Errorf("AsNode(%q): its branch to %q never joins the others, so a run cannot go on in it", node, to)
		}
	}
	if len(next) == 0 {
		return nil, nil, fmt.Errorf("AsNode(%q): its branches start no node", node)
	}
	return next, branches, nil
}
