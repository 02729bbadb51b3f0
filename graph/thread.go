package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
)

// WithCheckpointer makes the graph's runs durable: a run given a thread
// (WithThread) writes a checkpoint before each node outside parallel
// branches and one at its end (WithDurability says when they are
// written), so it can be read back (State, History), resumed after a crash
// or an interrupt (Resume), or forked from an earlier checkpoint
// (FromCheckpoint). Compile a subgraph with it too: its nodes then write
// checkpoints into the running thread and may Interrupt, and a resumed run
// enters it at the node it stopped in. CacheStates keeps the states runs
// ended with in memory. A graph compiled without it pays nothing for any
// of this.
func WithCheckpointer(store checkpoint.Store, opts ...CheckpointerOption) CompileOption {
	var co checkpointerOptions
	for _, opt := range opts {
		opt(&co)
	}
	if store != nil && co.cacheStates > 0 {
		store = newCachedStore(store, co.cacheStates)
	}
	return func(o *compileOptions) { o.store = store }
}

// WithStateVersion sets the version written with each checkpoint's state
// (1 when not set) and how to read the states of older versions: migrate
// turns the JSON of version from into the current one.
func WithStateVersion(version int, migrate func(from int, data json.RawMessage) (json.RawMessage, error)) CompileOption {
	return func(o *compileOptions) { o.version, o.migrate = version, migrate }
}

// WithThread records the run in a thread of the checkpointer: its
// checkpoints continue the thread's latest one. A run given an input on a
// thread that has a state starts from START on that state with the input
// merged into it (see Invoke); a run given the zero input continues the
// thread where it stands.
func WithThread(id string) RunOption { return func(o *runOptions) { o.thread = id } }

// FromCheckpoint makes a run (Invoke, Stream, Resume) or UpdateState start
// from an earlier checkpoint of the thread instead of its latest: the
// thread forks there (time travel). The new checkpoints continue that one,
// which their Parent names, and the checkpoints after it stay as they were.
func FromCheckpoint(id string) RunOption { return func(o *runOptions) { o.from = id } }

// WithInterruptBefore pauses the run before the named nodes (static
// breakpoints; a subgraph's node by its path, "react_agent/agent_tools").
// Resume runs the node.
func WithInterruptBefore(nodes ...string) RunOption {
	return func(o *runOptions) { o.before = append(o.before, nodes...) }
}

// WithInterruptAfter pauses the run after the named nodes, before whatever
// runs next. A run that ends with such a node ends as usual.
func WithInterruptAfter(nodes ...string) RunOption {
	return func(o *runOptions) { o.after = append(o.after, nodes...) }
}

// Durability says when a run on a thread writes its checkpoints
// (WithDurability), as LangGraph's durability modes do.
type Durability int

const (
	// DurabilitySync writes each checkpoint before the step after it runs:
	// a run that stops anywhere, its process killed included, resumes at
	// the step it was in. The default.
	DurabilitySync Durability = iota
	// DurabilityAsync writes the checkpoints in the background while the
	// next steps run, in order, and the run returns once they are written.
	// A failed write fails the run (the writes queued after it are
	// dropped). A process killed mid-run may lose the last steps' writes:
	// the thread resumes at an earlier step.
	DurabilityAsync
	// DurabilityExit writes a checkpoint only when the run ends, pauses
	// (an Interrupt, a breakpoint) or fails: the one it ended, paused or
	// failed at, which continues the checkpoint the run started from. A
	// process killed mid-run leaves the thread where the run started.
	// The cheapest: one write per run, and no state is encoded for the
	// steps in between (each node's input is kept as a copy, copyState's).
	DurabilityExit
)

func (d Durability) String() string {
	switch d {
	case DurabilitySync:
		return "sync"
	case DurabilityAsync:
		return "async"
	case DurabilityExit:
		return "exit"
	}
	return fmt.Sprintf("Durability(%d)", int(d))
}

// WithDurability sets when a run on a thread writes its checkpoints:
// DurabilitySync (the default), DurabilityAsync or DurabilityExit. What is
// written is the same; only what a run killed mid-way leaves differs.
func WithDurability(d Durability) RunOption { return func(o *runOptions) { o.durability = d } }

// storeTimeout bounds one call to the checkpointer.
const storeTimeout = 30 * time.Second

// Snapshot is a checkpoint of a thread with its state decoded. Its Parent
// is the checkpoint it continues: after a fork (FromCheckpoint) or an
// UpdateState of an earlier checkpoint, one that is not the checkpoint
// before it in History.
type Snapshot[S any] struct {
	checkpoint.Checkpoint
	State S
	// Namespace is "" for the graph's own snapshot, and a subgraph's path
	// ("react_agent") for a snapshot in Subgraphs.
	Namespace string
	// Subgraphs, with WithSubgraphs, are the snapshots of the subgraphs the
	// run stands in, each with its own state and its Next relative to it.
	Subgraphs []Snapshot[S]
}

// StateOption tunes State.
type StateOption func(*stateOptions)

type stateOptions struct{ subgraphs bool }

// WithSubgraphs makes State split a thread that stands inside subgraphs
// by graph: the graph's own snapshot holds the state its subgraph node
// started on and that node in Next, and Subgraphs hold each subgraph's
// snapshot with its namespace (see Snapshot).
func WithSubgraphs() StateOption { return func(o *stateOptions) { o.subgraphs = true } }

// State is the thread's latest checkpoint. Its Next names a node inside a
// subgraph by its path ("react_agent/agent_tools"); WithSubgraphs gives the
// subgraphs' own snapshots.
func (r *Runnable[S]) State(ctx context.Context, thread string, opts ...StateOption) (Snapshot[S], error) {
	var o stateOptions
	for _, opt := range opts {
		opt(&o)
	}
	if err := r.threaded(thread); err != nil {
		return Snapshot[S]{}, err
	}
	var snap Snapshot[S]
	var err error
	if cacheOf(r.store) != nil { // the head says whether the kept state is the latest
		var head checkpoint.Checkpoint
		if head, err = r.head(ctx, thread); err != nil {
			return Snapshot[S]{}, err
		}
		var s S
		var cp checkpoint.Checkpoint
		if s, cp, err = r.stateOf(ctx, head); err != nil {
			return Snapshot[S]{}, err
		}
		cp.State, cp.Interrupts = nil, withIDs(cp.Interrupts)
		snap = Snapshot[S]{Checkpoint: cp, State: s}
	} else {
		sctx, cancel := context.WithTimeout(ctx, storeTimeout)
		defer cancel()
		cp, err := r.store.Latest(sctx, thread)
		if err != nil {
			return Snapshot[S]{}, fmt.Errorf("graph %s: thread %q: %w", r.g.name, thread, err)
		}
		if snap, err = r.snapshot(cp); err != nil {
			return snap, err
		}
	}
	if !o.subgraphs {
		return snap, nil
	}
	return r.withSubgraphs(ctx, snap)
}

// HistoryOption narrows what History lists.
type HistoryOption func(*checkpoint.ListOptions)

// Last lists only the n newest checkpoints.
func Last(n int) HistoryOption { return func(o *checkpoint.ListOptions) { o.Limit = n } }

// Before lists only the checkpoints older than the one with this ID.
func Before(id string) HistoryOption { return func(o *checkpoint.ListOptions) { o.Before = id } }

// History lists the thread's checkpoints, newest first: all of them, or
// what the options leave.
func (r *Runnable[S]) History(ctx context.Context, thread string, opts ...HistoryOption) ([]Snapshot[S], error) {
	if err := r.threaded(thread); err != nil {
		return nil, err
	}
	var lo checkpoint.ListOptions
	for _, o := range opts {
		o(&lo)
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	cps, err := r.store.List(ctx, thread, lo)
	if err != nil {
		return nil, fmt.Errorf("graph %s: thread %q: %w", r.g.name, thread, err)
	}
	out := make([]Snapshot[S], 0, len(cps))
	for _, cp := range cps {
		s, err := r.snapshot(cp)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (r *Runnable[S]) snapshot(cp checkpoint.Checkpoint) (Snapshot[S], error) {
	s, err := r.codec.Decode(cp)
	if err != nil {
		return Snapshot[S]{}, err
	}
	cp.State = nil // decoded into State
	cp.Interrupts = withIDs(cp.Interrupts)
	return Snapshot[S]{Checkpoint: cp, State: s}, nil
}

func (r *Runnable[S]) threaded(thread string) error {
	if r.store == nil {
		return fmt.Errorf("graph %s: no checkpointer (compile it WithCheckpointer)", r.g.name)
	}
	if thread == "" {
		return fmt.Errorf("graph %s: thread: empty", r.g.name)
	}
	return nil
}

// Resume continues the thread's latest checkpoint (or FromCheckpoint's): a
// run that was interrupted, stopped at a breakpoint, or cut off by a crash
// or an error. value answers the pending Interrupt; the node that asked
// runs again from its start, and its Interrupt call returns value. When
// several parallel branches wait, value is a map[string]any from interrupt
// ID (InterruptError.Waiting) to answer; a branch left unanswered asks
// again. Stream resumes with WithResume.
func (r *Runnable[S]) Resume(ctx context.Context, thread string, value any, opts ...RunOption) (S, error) {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	o.thread, o.resuming, o.resumeValue = thread, true, value
	var zero S
	return r.invoke(ctx, zero, o)
}

func (r *Runnable[S]) load(ctx context.Context, thread, id string) (checkpoint.Checkpoint, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	var cp checkpoint.Checkpoint
	var err error
	if id == "" {
		cp, err = r.store.Latest(ctx, thread)
	} else {
		cp, err = r.store.Get(ctx, thread, id)
	}
	if err != nil {
		return cp, fmt.Errorf("graph %s: thread %q: %w", r.g.name, thread, err)
	}
	return cp, nil
}

type threadKey struct{}

// threadRun is one run's writing of a thread, shared with its subgraphs.
type threadRun[S any] struct {
	graph         string
	store         checkpoint.Store
	codec         checkpoint.Codec[S]
	thread        string
	before, after []string
	durability    Durability
	mu            sync.Mutex
	step          int
	last          string                 // the node that completed last
	input         *held[S]               // the running node's input, as its checkpoint holds it
	resume        []string               // the path still to descend to the resumed node
	answered      []checkpoint.Interrupt // the resumed node's questions and their answers
	pauseNext     string                 // a node with a breakpoint after it just completed
	fresh         bool                   // the run starts on a new input: its first checkpoint is the input's
	branches      *branchWork[S]         // the parallel branches a resumed run goes on with, until its graph takes them
	pending       *deferred[S]           // DurabilityExit: the checkpoint the run would resume from, not written
	queue         *writer[S]             // DurabilityAsync: the writes in the background
	cache         *cachedStore           // CacheStates, or nil

	wmu    sync.Mutex // held while a checkpoint is written: writes go one at a time, in order
	parent string     // the checkpoint the next one continues (wmu)
}

// held is a state a checkpoint holds: encoded at once (DurabilitySync), or
// a copy encoded when it is written or asked for.
type held[S any] struct {
	once sync.Once
	s    S
	data json.RawMessage
	err  error
}

// heldData is a state already encoded.
func heldData[S any](data json.RawMessage) *held[S] {
	h := &held[S]{data: data}
	h.once.Do(func() {})
	return h
}

func (h *held[S]) encode(c checkpoint.Codec[S]) (json.RawMessage, error) {
	h.once.Do(func() { h.data, _, h.err = c.Encode(h.s) })
	return h.data, h.err
}

// deferred is a checkpoint not written yet: its state is encoded when it is.
type deferred[S any] struct {
	cp    checkpoint.Checkpoint // with its step
	state *held[S]
	end   bool // the run's end: its state is kept (CacheStates)
}

func (r *Runnable[S]) newThreadRun(thread string, from checkpoint.Checkpoint, o runOptions) *threadRun[S] {
	tr := &threadRun[S]{graph: r.g.name, store: r.store, codec: r.codec, thread: thread, before: o.before, after: o.after, durability: o.durability,
		cache: cacheOf(r.store)}
	if from.ID != "" {
		tr.parent, tr.step, tr.last = from.ID, from.Metadata.Step+1, from.Metadata.Node
	}
	return tr
}

func threadOf[S any](ctx context.Context) *threadRun[S] {
	tr, _ := ctx.Value(threadKey{}).(*threadRun[S])
	return tr
}

// startTarget is the node a resumed graph enters first, or "".
func (tr *threadRun[S]) startTarget() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.resume) == 0 {
		return ""
	}
	return tr.resume[0]
}

// enter is called as a node outside parallel branches starts: it writes the
// checkpoint the node can be resumed from, or pauses at a breakpoint. The
// node being resumed writes none: its checkpoint is the one resumed.
func (tr *threadRun[S]) enter(ctx context.Context, path, name string, s S) (context.Context, error) {
	tr.mu.Lock()
	resumed := len(tr.resume) > 0 && tr.resume[0] == name
	if resumed {
		tr.resume = tr.resume[1:]
	}
	landed := resumed && len(tr.resume) == 0 // the node itself, not a subgraph on the way to it
	answers := tr.answered
	if landed {
		tr.answered = nil
	}
	pause := tr.pauseNext
	tr.pauseNext = ""
	tr.mu.Unlock()
	if resumed {
		if landed {
			ctx = context.WithValue(ctx, askKey{}, &asking{answered: answers})
		}
		return ctx, nil
	}
	tr.mu.Lock()
	cp := checkpoint.Checkpoint{Next: []string{path}, Metadata: checkpoint.Metadata{Node: tr.last, Source: "loop", Version: tr.codec.Version}}
	if tr.fresh {
		cp.Metadata.Source, tr.fresh = "input", false
	}
	tr.mu.Unlock()
	switch {
	case pause != "":
		cp.Interrupts = []checkpoint.Interrupt{breakpoint("after", pause)}
	case slices.Contains(tr.before, path) || slices.Contains(tr.before, name):
		cp.Interrupts = []checkpoint.Interrupt{breakpoint("before", path)}
	}
	var input *held[S]
	if len(cp.Interrupts) > 0 || tr.durability == DurabilitySync {
		data, _, err := tr.codec.Encode(s)
		if err != nil {
			return ctx, err
		}
		cp.State = data
		saved, err := tr.put(ctx, cp)
		if err != nil {
			return ctx, err
		}
		if len(cp.Interrupts) > 0 {
			return ctx, &InterruptError{Thread: tr.thread, Checkpoint: saved.ID, Interrupts: cp.Interrupts}
		}
		input = heldData[S](data)
	} else {
		input = &held[S]{s: copyState(s)} // the node may change s: the checkpoint holds its input
		if err := tr.later(ctx, cp, input, false); err != nil {
			return ctx, err
		}
	}
	tr.mu.Lock()
	tr.input = input
	tr.mu.Unlock()
	return context.WithValue(ctx, askKey{}, &asking{}), nil
}

// left is called as the node ends. An Interrupt the node asked pauses the
// run: the checkpoint holds the node's input, so the node runs again from
// its start when resumed, and every question it asked so far.
func (tr *threadRun[S]) left(ctx context.Context, path string, err error) error {
	var ask *interrupted
	if !errors.As(err, &ask) {
		if err == nil {
			tr.mu.Lock()
			tr.last = path
			if slices.Contains(tr.after, path) || slices.Contains(tr.after, lastSegment(path)) {
				tr.pauseNext = path
			}
			tr.mu.Unlock()
		}
		return err
	}
	if ask.saved != nil { // a node inside this one paused the run
		return ask.saved
	}
	input, err := tr.inputData()
	if err != nil {
		return err
	}
	tr.mu.Lock()
	last := tr.last
	tr.mu.Unlock()
	pending := withIDs(append(slices.Clone(ask.answered), checkpoint.Interrupt{Node: path, Index: ask.index, Payload: ask.payload}))
	saved, perr := tr.put(ctx, checkpoint.Checkpoint{Next: []string{path}, State: input, Interrupts: pending,
		Metadata: checkpoint.Metadata{Node: last, Source: "interrupt", Version: tr.codec.Version}})
	if perr != nil {
		return perr
	}
	ask.saved = &InterruptError{Thread: tr.thread, Checkpoint: saved.ID, Interrupts: pending}
	return ask.saved
}

// inputData is the running node's input as its checkpoint holds it.
func (tr *threadRun[S]) inputData() (json.RawMessage, error) {
	tr.mu.Lock()
	h := tr.input
	tr.mu.Unlock()
	if h == nil {
		return nil, nil
	}
	return h.encode(tr.codec)
}

// end records the checkpoint of a run that reached END. The run leaves s
// as it is from here, so DurabilityAsync and DurabilityExit encode it as
// they write it, without a copy.
func (tr *threadRun[S]) end(ctx context.Context, s S) error {
	tr.mu.Lock()
	cp := checkpoint.Checkpoint{Metadata: checkpoint.Metadata{Node: tr.last, Source: "loop", Version: tr.codec.Version}}
	tr.mu.Unlock()
	if tr.durability == DurabilitySync {
		data, _, err := tr.codec.Encode(s)
		if err != nil {
			return err
		}
		cp.State = data
		saved, err := tr.put(ctx, cp)
		if err == nil {
			tr.keep(saved, s)
		}
		return err
	}
	return tr.later(ctx, cp, &held[S]{s: s}, true)
}

// put writes cp now, as the thread's next checkpoint: after the writes
// DurabilityAsync queued, instead of the one DurabilityExit held back.
func (tr *threadRun[S]) put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	if err := tr.drain(); err != nil {
		return checkpoint.Checkpoint{}, err
	}
	tr.mu.Lock()
	tr.pending = nil
	cp.Metadata.Step = tr.step
	tr.step++
	tr.mu.Unlock()
	return tr.save(ctx, cp)
}

// later records cp, whose state is state's, as the run's durability says:
// now (DurabilitySync), queued (DurabilityAsync: an earlier write's failure
// is returned) or held back until the run returns (DurabilityExit).
func (tr *threadRun[S]) later(ctx context.Context, cp checkpoint.Checkpoint, state *held[S], end bool) error {
	tr.mu.Lock()
	cp.Metadata.Step = tr.step
	tr.step++
	d := deferred[S]{cp: cp, state: state, end: end}
	switch tr.durability {
	case DurabilityExit:
		tr.pending = &d
		tr.mu.Unlock()
		return nil
	case DurabilityAsync:
		if tr.queue == nil {
			tr.queue = tr.startWriter(ctx)
		}
		w := tr.queue
		tr.mu.Unlock()
		return w.add(d)
	}
	tr.mu.Unlock()
	return tr.write(ctx, d)
}

// write encodes and saves a deferred checkpoint.
func (tr *threadRun[S]) write(ctx context.Context, d deferred[S]) error {
	data, err := d.state.encode(tr.codec)
	if err != nil {
		return err
	}
	d.cp.State = data
	saved, err := tr.save(ctx, d.cp)
	if err == nil && d.end {
		tr.keep(saved, d.state.s)
	}
	return err
}

// save writes cp, whose step is set, continuing the thread's last write.
func (tr *threadRun[S]) save(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	tr.wmu.Lock()
	defer tr.wmu.Unlock()
	cp.Thread, cp.Parent = tr.thread, tr.parent
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout) // a cancelled run still records where it was
	defer cancel()
	saved, err := tr.store.Put(ctx, cp)
	if err != nil {
		return saved, fmt.Errorf("thread %q: checkpoint before %v: %w", tr.thread, cp.Next, err)
	}
	tr.parent = saved.ID
	return saved, nil
}

// finish writes what the run's durability held back, as the run returns
// with err: DurabilityAsync waits for its queue, DurabilityExit writes the
// checkpoint the run ended, paused or failed at. A failed write is the
// run's error (beside err, when the run failed too).
func (tr *threadRun[S]) finish(ctx context.Context, err error) error {
	werr := tr.drain()
	tr.mu.Lock()
	p := tr.pending
	tr.pending = nil
	tr.mu.Unlock()
	if p != nil && werr == nil {
		werr = tr.write(ctx, *p)
	}
	switch {
	case werr == nil:
		return err
	case err == nil:
		return fmt.Errorf("graph %s: %w", tr.graph, werr)
	}
	return errors.Join(err, fmt.Errorf("graph %s: %w", tr.graph, werr))
}

// writer writes DurabilityAsync's checkpoints in a goroutine, in order.
type writer[S any] struct {
	jobs chan deferred[S]
	done chan struct{}
	mu   sync.Mutex
	err  error // the first failed write; the later ones are dropped
}

// queueLength is how many checkpoints a run may be ahead of its writes
// before a step waits.
const queueLength = 64

func (tr *threadRun[S]) startWriter(ctx context.Context) *writer[S] {
	w := &writer[S]{jobs: make(chan deferred[S], queueLength), done: make(chan struct{})}
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer close(w.done)
		for d := range w.jobs {
			if w.failed() != nil {
				continue
			}
			if err := tr.write(ctx, d); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
			}
		}
	}()
	return w
}

func (w *writer[S]) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// add queues d, or returns the failure of an earlier write.
func (w *writer[S]) add(d deferred[S]) error {
	if err := w.failed(); err != nil {
		return err
	}
	w.jobs <- d
	return nil
}

// drain waits until DurabilityAsync's queue is written and returns the
// first failed write.
func (tr *threadRun[S]) drain() error {
	tr.mu.Lock()
	w := tr.queue
	tr.queue = nil
	tr.mu.Unlock()
	if w == nil {
		return nil
	}
	close(w.jobs)
	<-w.done
	return w.failed()
}

func breakpoint(when, node string) checkpoint.Interrupt {
	payload, _ := json.Marshal(map[string]string{when: node})
	return checkpoint.Interrupt{ID: interruptID(node, -1), Node: node, Index: -1, Payload: payload}
}

func lastSegment(path string) string { return path[strings.LastIndex(path, "/")+1:] }
