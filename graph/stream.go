package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
)

// StreamMode names a kind of stream event, with LangGraph's names.
type StreamMode string

// The stream modes, and the mode of the stream's last event.
const (
	StreamValues   StreamMode = "values"   // the state after each step
	StreamUpdates  StreamMode = "updates"  // a node's name and what it changed: new items of append fields, other fields that changed
	StreamMessages StreamMode = "messages" // model output, as a node writes it with EmitMessage
	StreamCustom   StreamMode = "custom"   // anything a node writes with Emit
	StreamDebug    StreamMode = "debug"    // node start and end, with timing, attempt and error
	StreamEnd      StreamMode = "end"      // the final state; an error ends the stream instead
)

// Debug is a node's start or end, in the debug mode.
type Debug struct {
	Event    string        `json:"event"` // DebugStart or DebugEnd
	Attempt  int           `json:"attempt"`
	Duration time.Duration `json:"duration,omitempty"`
	Error    string        `json:"error,omitempty"`
}

// The events of Debug.
const (
	DebugStart = "start"
	DebugEnd   = "end"
)

// Chunk is one event of a stream. Path names the node that produced it,
// subgraphs included ("react_agent/agent_model"); only the fields of its
// mode are set.
//
// Update holds what the node changed, by the state's JSON names, as
// LangGraph's updates hold what a node returned: a field tagged
// `reduce:"append"` holds only the items the node appended, a nested
// struct (one the reducers merge field by field) only its changed fields,
// any other field its new value (null when it is gone). So each event
// stays as small as the step, however long the lists grow. A node that
// did more to an append field than append (it dropped or changed items)
// sends the field whole, and Overwrite names it (a dotted path for a
// nested field: "diagnostics.nodes"), so a reader that applies updates
// knows to replace the list rather than extend it.
type Chunk[S any] struct {
	Mode      StreamMode                 `json:"mode"`
	Path      string                     `json:"path,omitempty"`
	State     S                          `json:"state,omitzero"`      // values, end
	Update    map[string]json.RawMessage `json:"update,omitempty"`    // updates
	Overwrite []string                   `json:"overwrite,omitempty"` // updates: append fields sent whole
	Message   any                        `json:"message,omitempty"`
	Custom    any                        `json:"custom,omitempty"`
	Debug     *Debug                     `json:"debug,omitempty"`
}

// WithStreamModes chooses the modes Stream yields (values when none are
// given).
func WithStreamModes(modes ...StreamMode) RunOption {
	return func(o *runOptions) { o.modes = append(o.modes, modes...) }
}

// streamer carries a stream's events from the nodes to the reader. It
// travels in the context, so subgraphs run inside a node stream too.
type streamer struct {
	modes  map[StreamMode]bool
	events chan any // Chunk[S] of the run's state type
	done   <-chan struct{}
	path   string
}

type streamKey struct{}

func streamOf(ctx context.Context) *streamer {
	st, _ := ctx.Value(streamKey{}).(*streamer)
	return st
}

func (st *streamer) send(c any) {
	select {
	case st.events <- c:
	case <-st.done:
	}
}

// Stream runs the graph like Invoke and yields its events in order, in the
// modes asked for; the last event is StreamEnd with the final state, or an
// error. Stopping the loop early cancels the run.
func (r *Runnable[S]) Stream(ctx context.Context, s S, opts ...RunOption) iter.Seq2[Chunk[S], error] {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	if len(o.modes) == 0 {
		o.modes = []StreamMode{StreamValues}
	}
	return func(yield func(Chunk[S], error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		st := &streamer{modes: map[StreamMode]bool{}, events: make(chan any, 64), done: ctx.Done(), path: streamOf(ctx).pathOrEmpty()}
		for _, m := range o.modes {
			st.modes[m] = true
		}
		type result struct {
			s   S
			err error
		}
		end := make(chan result, 1)
		var wg sync.WaitGroup
		wg.Go(func() {
			out, err := r.invoke(context.WithValue(ctx, streamKey{}, st), s, o)
			end <- result{out, err}
		})
		defer wg.Wait()
		for {
			select {
			case c := <-st.events:
				if !yield(typed[S](c), nil) {
					return
				}
			case res := <-end:
				for len(st.events) > 0 {
					if !yield(typed[S](<-st.events), nil) {
						return
					}
				}
				if res.err != nil {
					yield(Chunk[S]{}, res.err)
					return
				}
				yield(Chunk[S]{Mode: StreamEnd, State: res.s}, nil)
				return
			}
		}
	}
}

func (st *streamer) pathOrEmpty() string {
	if st == nil {
		return ""
	}
	return st.path
}

// Path is the path of the node running in ctx, subgraphs included, while
// the run streams; "" otherwise.
func Path(ctx context.Context) string { return streamOf(ctx).pathOrEmpty() }

// Emit writes v to the run's custom stream; a run that is not streamed
// drops it at no cost.
func Emit(ctx context.Context, v any) { emit(ctx, StreamCustom, func(c *chunk) { c.custom = v }) }

// EmitMessage writes model output (a token, a message chunk) to the run's
// messages stream.
func EmitMessage(ctx context.Context, m any) {
	emit(ctx, StreamMessages, func(c *chunk) { c.message = m })
}

// chunk is the untyped part of a Chunk, for emitters that do not know S.
type chunk struct {
	custom, message any
	debug           *Debug
}

func emit(ctx context.Context, mode StreamMode, fill func(*chunk)) {
	st := streamOf(ctx)
	if st == nil || !st.modes[mode] {
		return
	}
	var c chunk
	fill(&c)
	st.send(untyped{mode: mode, path: st.path, c: c})
}

// untyped is an event made without the state type; the node's observer
// turns it into a Chunk[S] (see typed).
type untyped struct {
	mode StreamMode
	path string
	c    chunk
}

// typed turns an event off the channel into a Chunk of the run's state.
func typed[S any](e any) Chunk[S] {
	u, ok := e.(untyped)
	if !ok {
		return e.(Chunk[S])
	}
	return Chunk[S]{Mode: u.mode, Path: u.path, Message: u.c.message, Custom: u.c.custom, Debug: u.c.debug}
}

func emitDebug(ctx context.Context, name, event string, attempt int, took time.Duration, err error) {
	emit(ctx, StreamDebug, func(c *chunk) {
		c.debug = &Debug{Event: event, Attempt: attempt, Duration: took}
		if err != nil {
			c.debug.Error = err.Error()
		}
	})
}

func emitValues[S any](ctx context.Context, s S) {
	if st := streamOf(ctx); st != nil && st.modes[StreamValues] {
		st.send(Chunk[S]{Mode: StreamValues, Path: st.path, State: snapshot(s)})
	}
}

// snapshot copies a state for a reader while the run goes on changing it,
// as a branch's copy is made (JSON, used before, dropped the fields it
// does not encode).
func snapshot[S any](s S) S { return copyState(s) }

// observe runs a node, reporting it to the stream if the run streams: the
// debug start and end (unless the policy reports each attempt), the fields
// it changed, and the state after it when it is the run's whole state.
func observe[S any](ctx context.Context, name string, call NodeFunc[S], s S, whole, policy bool) (S, error) {
	return observeIn(ctx, streamOf(ctx), name, call, s, whole, policy)
}

// observeIn is observe with the run's stream (streamOf) already looked up.
func observeIn[S any](ctx context.Context, parent *streamer, name string, call NodeFunc[S], s S, whole, policy bool) (S, error) {
	if parent == nil {
		return call(ctx, s)
	}
	st := *parent
	st.path = joinPath(parent.path, name)
	ctx = context.WithValue(ctx, streamKey{}, &st)
	var before []byte
	if st.modes[StreamUpdates] {
		before, _ = json.Marshal(s)
	}
	if !policy {
		emitDebug(ctx, name, DebugStart, 1, 0, nil)
	}
	start := time.Now()
	out, err := call(ctx, s)
	if !policy {
		emitDebug(ctx, name, DebugEnd, 1, time.Since(start), err)
	}
	if err != nil {
		return out, err
	}
	if st.modes[StreamUpdates] {
		after, _ := json.Marshal(out)
		update, overwrite := shapeFor[S]().changes(before, after)
		st.send(Chunk[S]{Mode: StreamUpdates, Path: st.path, Update: update, Overwrite: overwrite})
	}
	if whole {
		emitValues(context.WithValue(ctx, streamKey{}, parent), out)
	}
	return out, nil
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// updateShape is what the updates stream knows of a JSON object of the
// state: the fields that hold append-reduced lists, and those that hold
// nested structs the reducers merge field by field, by their JSON names.
type updateShape struct {
	append bool
	fields map[string]*updateShape // a struct's fields; nil for any other value
}

var shapes sync.Map // reflect.Type → *updateShape

// shapeFor is the shape of S, worked out once per type.
func shapeFor[S any]() *updateShape {
	t := reflect.TypeFor[S]()
	if sh, ok := shapes.Load(t); ok {
		return sh.(*updateShape)
	}
	sh := &updateShape{}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		sh.fields = map[string]*updateShape{}
		shapeFields(t, sh.fields, map[string]int{}, 0)
	}
	shapes.Store(reflect.TypeFor[S](), sh)
	return sh
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// shapeFields adds the JSON fields of struct t to into, by encoding/json's
// rules: `json:"-"` and unexported fields are left out, a tag renames, an
// untagged embedded struct lends its fields, and of two fields of one name
// the shallower wins. depth holds the depth each name was found at.
func shapeFields(t reflect.Type, into map[string]*updateShape, depth map[string]int, level int) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				shapeFields(ft, into, depth, level+1)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if d, ok := depth[name]; ok && d <= level {
			continue
		}
		sh := &updateShape{append: f.Tag.Get("reduce") == ReduceAppend}
		if f.Tag.Get("reduce") == "" && ft.Kind() == reflect.Struct && allExported(ft) &&
			!ft.Implements(jsonMarshaler) && !reflect.PointerTo(ft).Implements(jsonMarshaler) {
			sh.fields = map[string]*updateShape{}
			shapeFields(ft, sh.fields, map[string]int{}, 0)
		}
		into[name], depth[name] = sh, level
	}
}

// changes is what a node changed, from the state's JSON before and after
// it, and the append fields it did more to than append (see Chunk). A
// state that is not a JSON object is sent whole under "".
func (sh *updateShape) changes(before, after []byte) (map[string]json.RawMessage, []string) {
	var overwrite []string
	out, ok := sh.changed(before, after, "", &overwrite)
	if !ok {
		return map[string]json.RawMessage{"": after}, nil
	}
	slices.Sort(overwrite)
	return out, overwrite
}

func (sh *updateShape) changed(before, after []byte, prefix string, overwrite *[]string) (map[string]json.RawMessage, bool) {
	var b, a map[string]json.RawMessage
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil || a == nil {
		return nil, false
	}
	out := map[string]json.RawMessage{}
	for k, v := range a {
		old, had := b[k]
		if had && bytes.Equal(old, v) {
			continue
		}
		f := sh.fields[k]
		switch {
		case f != nil && f.append:
			tail, ok := appended(old, v)
			if !ok {
				*overwrite = append(*overwrite, prefix+k)
				break
			}
			if tail != nil { // nil became empty: nothing was appended
				out[k] = tail
			}
			continue
		case f != nil && f.fields != nil && had:
			if sub, ok := f.changed(old, v, prefix+k+".", overwrite); ok {
				if len(sub) == 0 { // a nested list went from nil to empty
					continue
				}
				if data, err := json.Marshal(sub); err == nil {
					out[k] = data
					continue
				}
			}
		}
		out[k] = v
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out[k] = json.RawMessage("null")
		}
	}
	return out, true
}

// appended is the JSON array of the items after holds beyond before, when
// after only added to before; nil when it added none.
func appended(before, after json.RawMessage) (json.RawMessage, bool) {
	var b, a []json.RawMessage
	if len(before) > 0 && json.Unmarshal(before, &b) != nil {
		return nil, false
	}
	if json.Unmarshal(after, &a) != nil || a == nil || len(a) < len(b) {
		return nil, false
	}
	for i := range b {
		if !bytes.Equal(b[i], a[i]) {
			return nil, false
		}
	}
	if len(a) == len(b) {
		return nil, true
	}
	tail := json.RawMessage("[")
	for i, item := range a[len(b):] {
		if i > 0 {
			tail = append(tail, ',')
		}
		tail = append(tail, item...)
	}
	return append(tail, ']'), true
}
