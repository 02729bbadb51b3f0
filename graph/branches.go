package graph

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// Interrupts in parallel branches.
//
// eino runs a graph's steps as its own supersteps and fails the whole run
// at a node's error, so a branch node's Interrupt cannot be an error there
// without losing the other branches' work. Instead the node's run is
// recorded as paused and it returns normally; every exit of a branch node
// asks whether the node paused (unlessPaused, and the check in arrive), and
// a paused node's exits lead nowhere. The other branches
// run on until they wait at their join, which cannot run, and eino ends
// with no task left: settle then writes one checkpoint with an interrupt
// per paused node, the paused nodes' inputs, the branches that arrived at
// their joins and the states their forks left (checkpoint.Branch). A
// resumed run restores those into the run's bookkeeping and enters at the
// paused nodes only, which eino allows as START may lead to any node.
//
// A subgraph run as a branch's node is one task: its nodes write no
// checkpoints, and when one asks, the subgraph runs again from its start
// on resume (its earlier questions are answered in order).

type branchKey struct{}

// branchWork is the parallel work a checkpoint holds for one graph of a
// run (ns is its path: "" for the graph itself, a subgraph node's path).
type branchWork[S any] struct {
	ns      string
	bases   map[string]S // fork → the state its branches started from
	arrived []arrival[S]
	paused  map[string]pausedNode[S] // node → what it runs again with
	order   []string                 // the paused nodes, as Next lists them
}

type arrival[S any] struct {
	join, from string
	s          S
}

type pausedNode[S any] struct {
	input S
	asked []checkpoint.Interrupt // its questions, with the answers a resume gave
	data  []byte                 // input as the checkpoint holds it
}

// branchRun is one graph run's record of its paused branch nodes.
type branchRun[S any] struct {
	r   *Runnable[S]
	tr  *threadRun[S]
	inv *invocation[S]
	ns  string

	entry map[string]bool // a resumed run enters at these nodes

	mu      sync.Mutex
	resumed map[string]pausedNode[S] // paused nodes not yet run again
	halted  map[string]pausedNode[S] // nodes that paused in this run
	failed  bool                     // a branch node failed: the run fails, it does not pause
}

func branchesFrom[S any](ctx context.Context) *branchRun[S] {
	br, _ := ctx.Value(branchKey{}).(*branchRun[S])
	return br
}

// branchesOf opens the run's record of paused branches, restoring those a
// resumed run goes on with. A run without a thread or parallel work has
// none; the value is set anyway, so that a subgraph never reads its
// parent's.
func (r *Runnable[S]) branchesOf(ctx context.Context) (context.Context, *branchRun[S]) {
	tr := threadOf[S](ctx)
	inv := invocationOf[S](ctx)
	if tr == nil || inv == nil {
		return context.WithValue(ctx, branchKey{}, (*branchRun[S])(nil)), nil
	}
	br := &branchRun[S]{r: r, tr: tr, inv: inv, ns: nodePath(ctx), halted: map[string]pausedNode[S]{}}
	if w := tr.takeBranches(br.ns); w != nil {
		for fork, s := range w.bases {
			inv.setBase(fork, s)
		}
		br.resumed, br.entry = w.paused, map[string]bool{}
		for name := range w.paused {
			br.entry[name] = true
		}
		for _, a := range w.arrived {
			if r.verbs.node(a.join).deferred {
				runOf(ctx).restoreArrival(a.join, a.from, a.s)
				br.entry[a.join] = true
				continue
			}
			inv.arrive(a.join, a.from, a.s, len(r.plan.joins[a.join]))
		}
	}
	return context.WithValue(ctx, branchKey{}, br), br
}

// takeBranches hands the branches a resumed run goes on with to the graph
// they belong to, once the run has descended to it.
func (tr *threadRun[S]) takeBranches(ns string) *branchWork[S] {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	w := tr.branches
	if w == nil || w.ns != ns || len(tr.resume) > 0 {
		return nil
	}
	tr.branches = nil
	return w
}

// resumeEntry is where a resumed graph enters: the node on the resumed
// path, the paused branch nodes, or nil for a run from START.
func resumeEntry[S any](ctx context.Context) map[string]bool {
	if tr := threadOf[S](ctx); tr != nil {
		if to := tr.startTarget(); to != "" {
			return map[string]bool{to: true}
		}
	}
	if br := branchesFrom[S](ctx); br != nil && br.entry != nil {
		return br.entry
	}
	return nil
}

// haltedAt says whether node paused in this run: its edges lead nowhere.
func haltedAt[S any](ctx context.Context, node string) bool {
	br := branchesFrom[S](ctx)
	if br == nil {
		return false
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	_, ok := br.halted[node]
	return ok
}

// pausedBranches says whether a branch node of this run paused for input.
func pausedBranches[S any](ctx context.Context) bool {
	br := branchesFrom[S](ctx)
	if br == nil {
		return false
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	return len(br.halted) > 0
}

// unlessPaused is an exit of a node (a fixed edge, its router, its Goto):
// it leads nowhere when the node paused in a parallel branch.
func (r *Runnable[S]) unlessPaused(from string, cond condition[S]) condition[S] {
	if r.store == nil || !r.plan.inBranch[from] {
		return cond
	}
	return func(ctx context.Context, s S) (map[string]bool, error) {
		if haltedAt[S](ctx, from) {
			return map[string]bool{}, nil
		}
		return cond(ctx, s)
	}
}

// branchTask is one branch node's run in a thread.
type branchTask[S any] struct {
	br         *branchRun[S]
	name, path string
	input      []byte
	asked      []checkpoint.Interrupt
}

// branchStart prepares a branch node's run in a thread: a resumed node
// gets its input and answers back; the node may Interrupt; a subgraph it
// runs writes no checkpoints (it is one task of the branch). Its input is
// kept, as the node runs again from it if it pauses.
func branchStart[S any](ctx context.Context, name string, s S) (context.Context, S, *branchTask[S]) {
	br := branchesFrom[S](ctx)
	if br == nil {
		return ctx, s, nil
	}
	bt := &branchTask[S]{br: br, name: name, path: joinPath(br.ns, name)}
	br.mu.Lock()
	if p, ok := br.resumed[name]; ok {
		delete(br.resumed, name)
		s, bt.asked, bt.input = p.input, p.asked, p.data
	}
	br.mu.Unlock()
	if bt.input == nil {
		data, _, err := br.r.codec.Encode(s)
		if err != nil {
			return ctx, s, nil // a state that does not encode cannot be checkpointed; Interrupt says it needs a thread
		}
		bt.input = data
	}
	ctx = context.WithValue(ctx, askKey{}, &asking{answered: bt.asked})
	ctx = context.WithValue(ctx, threadKey{}, (*threadRun[S])(nil))
	ctx = context.WithValue(ctx, nodePathKey{}, bt.path)
	return ctx, s, bt
}

// end records a node that paused; it returns normally, and its edges lead
// nowhere.
func (bt *branchTask[S]) end(in, out S, err error) (S, error) {
	var ask *interrupted
	br := bt.br
	br.mu.Lock()
	defer br.mu.Unlock()
	switch {
	case errors.As(err, &ask):
		pending := append(slices.Clone(ask.answered), checkpoint.Interrupt{Node: bt.path, Index: ask.index, Payload: ask.payload})
		br.halted[bt.name] = pausedNode[S]{asked: withIDs(pending), data: bt.input}
		return in, nil
	case err != nil:
		br.failed = true
	}
	return out, err
}

// settle turns a run whose branch nodes paused into a pause of the thread,
// once eino ran out of work: every other branch has finished or waits at
// its join. A run in which a node failed, or that was cancelled, fails.
func (br *branchRun[S]) settle(ctx context.Context, err error) error {
	if br == nil || err == nil || ctx.Err() != nil {
		return err
	}
	br.mu.Lock()
	halted, failed := len(br.halted), br.failed
	br.mu.Unlock()
	if halted == 0 || failed {
		return err
	}
	var paused *InterruptError
	if errors.As(err, &paused) {
		return err
	}
	return br.pause(ctx)
}

// pause writes the checkpoint of the paused branches.
func (br *branchRun[S]) pause(ctx context.Context) error {
	r, inv := br.r, br.inv
	br.mu.Lock()
	halted := br.halted
	br.mu.Unlock()
	names := make([]string, 0, len(halted))
	for _, n := range r.g.order {
		if _, ok := halted[n]; ok {
			names = append(names, n)
		}
	}
	cp := checkpoint.Checkpoint{Metadata: checkpoint.Metadata{Source: "interrupt", Version: r.codec.Version}}
	for _, n := range names {
		h := halted[n]
		cp.Next = append(cp.Next, joinPath(br.ns, n))
		cp.Interrupts = append(cp.Interrupts, h.asked...)
		cp.Branches = append(cp.Branches, checkpoint.Branch{Kind: checkpoint.BranchPaused, Node: joinPath(br.ns, n), State: h.data})
	}
	inv.mu.Lock()
	var bases []string
	for fork := range inv.bases {
		if fork != START {
			bases = append(bases, fork)
		}
	}
	slices.Sort(bases)
	baseStates := make([]S, len(bases))
	for i, f := range bases {
		baseStates[i] = inv.bases[f]
	}
	var arrived []arrival[S]
	for _, join := range sortedKeys(inv.arrived) {
		for _, from := range sortedKeys(inv.arrived[join]) {
			arrived = append(arrived, arrival[S]{join: join, from: from, s: inv.arrived[join][from]})
		}
	}
	inv.mu.Unlock()
	arrived = append(arrived, heldArrivals[S](runOf(ctx))...) // at deferred nodes
	outer := br.outerFork(names[0])
	for i, fork := range bases {
		data, _, err := r.codec.Encode(baseStates[i])
		if err != nil {
			return err
		}
		cp.Branches = append(cp.Branches, checkpoint.Branch{Kind: checkpoint.BranchBase, Node: joinPath(br.ns, fork), State: data})
		if fork == outer {
			cp.State = data // the state the branches started from
		}
	}
	for _, a := range arrived {
		data, _, err := r.codec.Encode(a.s)
		if err != nil {
			return err
		}
		cp.Branches = append(cp.Branches, checkpoint.Branch{Kind: checkpoint.BranchArrived, Node: joinPath(br.ns, a.from),
			Join: joinPath(br.ns, a.join), State: data})
	}
	tr := br.tr
	if cp.State == nil {
		input, err := tr.inputData()
		if err != nil {
			return err
		}
		cp.State = input
	}
	tr.mu.Lock()
	cp.Metadata.Node = tr.last
	tr.mu.Unlock()
	saved, err := tr.put(ctx, cp)
	if err != nil {
		return err
	}
	return &InterruptError{Thread: tr.thread, Checkpoint: saved.ID, Interrupts: cp.Interrupts}
}

// outerFork is the fork outside every parallel branch that node's branch
// started from, "" if none ran.
func (br *branchRun[S]) outerFork(node string) string {
	p := br.r.plan
	succ := successors(br.r.g)
	for _, join := range sortedKeys(p.joins) {
		fork := p.forkOf[join]
		if p.inBranch[fork] {
			continue
		}
		region := map[string]bool{}
		markBranches(succ, fork, join, region)
		if region[node] {
			return fork
		}
	}
	return ""
}

// branchWorkOf reads the parallel work of a checkpoint, with the answers
// a resume gave its interrupts.
func (r *Runnable[S]) branchWorkOf(cp checkpoint.Checkpoint, ins []checkpoint.Interrupt) (*branchWork[S], error) {
	ns := path.Dir(cp.Next[0])
	if ns == "." {
		ns = ""
	}
	w := &branchWork[S]{ns: ns, bases: map[string]S{}, paused: map[string]pausedNode[S]{}}
	local := func(p string) (string, error) {
		if ns == "" {
			if strings.Contains(p, "/") {
				return "", fmt.Errorf("checkpoint %s: branch node %q is not in the graph %q", cp.ID, p, r.g.name)
			}
			return p, nil
		}
		name, ok := strings.CutPrefix(p, ns+"/")
		if !ok || strings.Contains(name, "/") {
			return "", fmt.Errorf("checkpoint %s: branch node %q is not in subgraph %q", cp.ID, p, ns)
		}
		return name, nil
	}
	for _, b := range cp.Branches {
		s, err := r.codec.Decode(checkpoint.Checkpoint{Thread: cp.Thread, ID: cp.ID, Metadata: cp.Metadata, State: b.State})
		if err != nil {
			return nil, err
		}
		node, err := local(b.Node)
		if err != nil {
			return nil, err
		}
		switch b.Kind {
		case checkpoint.BranchBase:
			w.bases[node] = s
		case checkpoint.BranchArrived:
			join, err := local(b.Join)
			if err != nil {
				return nil, err
			}
			w.arrived = append(w.arrived, arrival[S]{join: join, from: node, s: s})
		case checkpoint.BranchPaused:
			var asked []checkpoint.Interrupt
			for _, in := range ins {
				if in.Node == b.Node && in.Index >= 0 {
					asked = append(asked, in)
				}
			}
			w.paused[node] = pausedNode[S]{input: s, asked: asked, data: b.State}
			w.order = append(w.order, node)
		default:
			return nil, fmt.Errorf("checkpoint %s: unknown kind of branch %q", cp.ID, b.Kind)
		}
	}
	if len(w.paused) == 0 {
		return nil, fmt.Errorf("checkpoint %s: parallel branches without a node to run", cp.ID)
	}
	return w, nil
}
