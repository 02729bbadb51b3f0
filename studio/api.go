package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
	"github.com/sgrgraph/sgrgraph/tables"
)

// storeTimeout bounds one read or write of the store a request makes.
const storeTimeout = 30 * time.Second

// maxID bounds a thread's or a checkpoint's id in a URL.
const maxID = 128

// nodeView is a node of the drawing, for the page.
type nodeView struct {
	Path     string `json:"path"`
	Label    string `json:"label"`
	Subgraph bool   `json:"subgraph,omitempty"`
	Top      bool   `json:"top,omitempty"` // a node of the graph itself, which AsNode may name
}

func (st *studio[S]) graphInfo(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"name": st.graph.Name(), "mermaid": st.mermaid, "svg": st.svg,
		"nodes": st.nodes, "fields": st.fields})
}

func (st *studio[S]) graphSVG(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write([]byte(st.svg))
}

// validID checks an id taken from a URL: 1 to maxID letters, digits and
// - _ . : (the characters the server's session ids and the stores' ids use).
func validID(id string) bool {
	if id == "" || len(id) > maxID {
		return false
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}

// owner is the prefix of the store's threads the request may see.
func (st *studio[S]) owner(r *http.Request) string {
	if st.o.Owner == nil {
		return ""
	}
	return st.o.Owner(r) + "/"
}

// threadOf is the store's thread the URL names, or "" after answering 400.
func (st *studio[S]) threadOf(w http.ResponseWriter, r *http.Request) (id, stored string) {
	id = r.PathValue("thread")
	if !validID(id) {
		writeError(w, http.StatusBadRequest, "thread", "thread %q: 1 to %d letters, digits, '-', '_', '.' or ':'", clip(id), maxID)
		return "", ""
	}
	return id, st.owner(r) + id
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

type threadView struct {
	ID          string    `json:"id"`
	Checkpoints int       `json:"checkpoints"`
	Latest      time.Time `json:"latest"`
}

func (st *studio[S]) threads(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	all, err := st.store.Threads(ctx)
	if err != nil {
		st.failed(w, "list threads", err)
		return
	}
	prefix := st.owner(r)
	out := []threadView{}
	for _, t := range all {
		id, ok := strings.CutPrefix(t.Thread, prefix)
		if !ok || !validID(id) {
			continue // another owner's, or a thread no URL can name
		}
		if out = append(out, threadView{ID: id, Checkpoints: t.Checkpoints, Latest: t.Latest}); len(out) == st.o.MaxThreads {
			break
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"threads": out})
}

// summary is a checkpoint as the page lists it: what it is, what ran
// before it, which fields that changed and which table rows fired.
type summary struct {
	ID         string                 `json:"id"`
	Parent     string                 `json:"parent,omitempty"`
	Step       int                    `json:"step"`
	Node       string                 `json:"node,omitempty"`
	Source     string                 `json:"source"`
	Time       time.Time              `json:"time"`
	Next       []string               `json:"next"`
	Interrupts []checkpoint.Interrupt `json:"interrupts,omitempty"`
	Changed    []string               `json:"changed"`
	Decisions  []tables.Result        `json:"decisions"`
	diffs      []change               // for the detail
	state      map[string]json.RawMessage
}

// history reads the thread's checkpoints, newest first, each compared with
// its parent (or, when the parent is not listed, the checkpoint before it).
// A thread without checkpoints answers 404.
func (st *studio[S]) history(w http.ResponseWriter, r *http.Request, id, thread string) ([]summary, bool) {
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	snaps, err := st.graph.History(ctx, thread, graph.Last(st.o.MaxCheckpoints))
	if err != nil {
		st.failed(w, "read thread "+id, err)
		return nil, false
	}
	if len(snaps) == 0 {
		writeError(w, http.StatusNotFound, "thread", "thread %q: not found (it has no checkpoints)", id)
		return nil, false
	}
	states := make([]map[string]json.RawMessage, len(snaps))
	index := map[string]int{}
	for i, s := range snaps {
		if states[i], err = fieldsJSON(s.State); err != nil {
			st.failed(w, "encode a state of thread "+id, err)
			return nil, false
		}
		index[s.ID] = i
	}
	names := make([]string, len(st.fields))
	for i, f := range st.fields {
		names[i] = f.Name
	}
	out := make([]summary, len(snaps))
	for i, s := range snaps {
		before := i + 1 // the checkpoint put before it
		if p, ok := index[s.Parent]; ok {
			before = p
		}
		var was map[string]json.RawMessage
		var wasState any
		if before < len(snaps) {
			was, wasState = states[before], snaps[before].State
		}
		diffs := diff(was, states[i], names)
		changed := make([]string, len(diffs))
		for j, c := range diffs {
			changed[j] = c.Field
		}
		out[i] = summary{ID: s.ID, Parent: s.Parent, Step: s.Metadata.Step, Node: s.Metadata.Node, Source: s.Metadata.Source,
			Time: s.Metadata.Time, Next: cmpSlice(s.Next), Interrupts: s.Interrupts, Changed: changed,
			Decisions: cmpSlice(fired(wasState, s.State)), diffs: diffs, state: states[i]}
	}
	return out, true
}

func cmpSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (st *studio[S]) thread(w http.ResponseWriter, r *http.Request) {
	id, thread := st.threadOf(w, r)
	if thread == "" {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	snap, err := st.graph.State(ctx, thread)
	if errors.Is(err, checkpoint.ErrNotFound) {
		writeError(w, http.StatusNotFound, "thread", "thread %q: not found (it has no checkpoints)", id)
		return
	}
	if err != nil {
		st.failed(w, "read thread "+id, err)
		return
	}
	_, running := st.running.Load(thread)
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "checkpoint": snap.ID, "step": snap.Metadata.Step,
		"next": cmpSlice(snap.Next), "interrupts": cmpSlice(snap.Interrupts), "running": running})
}

func (st *studio[S]) checkpoints(w http.ResponseWriter, r *http.Request) {
	id, thread := st.threadOf(w, r)
	if thread == "" {
		return
	}
	list, ok := st.history(w, r, id, thread)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"thread": id, "checkpoints": list})
}

// checkpoint shows one checkpoint: its state, what changed from the one
// before, and the rows that fired.
func (st *studio[S]) checkpoint(w http.ResponseWriter, r *http.Request) {
	id, thread := st.threadOf(w, r)
	if thread == "" {
		return
	}
	cp := r.PathValue("checkpoint")
	if !validID(cp) {
		writeError(w, http.StatusBadRequest, "checkpoint", "checkpoint %q: 1 to %d letters, digits, '-', '_', '.' or ':'", clip(cp), maxID)
		return
	}
	list, ok := st.history(w, r, id, thread)
	if !ok {
		return
	}
	i := slices.IndexFunc(list, func(s summary) bool { return s.ID == cp })
	if i < 0 {
		writeError(w, http.StatusNotFound, "checkpoint", "checkpoint %q: not among the %d newest checkpoints of thread %q", cp, len(list), id)
		return
	}
	c := list[i]
	writeJSON(w, http.StatusOK, map[string]any{"thread": id, "checkpoint": c, "state": c.state, "diff": cmpSlice(c.diffs)})
}

// forkRequest edits one field of a checkpoint's state.
type forkRequest struct {
	Field  string          `json:"field"`
	Value  json.RawMessage `json:"value"`
	AsNode string          `json:"as_node"`
}

// fork writes the edit as a new checkpoint after the one named
// (graph.UpdateState with FromCheckpoint, and AsNode when given): the
// thread forks there; a run from the new checkpoint goes on from the edit.
func (st *studio[S]) fork(w http.ResponseWriter, r *http.Request) {
	id, thread := st.threadOf(w, r)
	if thread == "" {
		return
	}
	cp := r.PathValue("checkpoint")
	if !validID(cp) {
		writeError(w, http.StatusBadRequest, "checkpoint", "checkpoint %q: 1 to %d letters, digits, '-', '_', '.' or ':'", clip(cp), maxID)
		return
	}
	var req forkRequest
	if !st.decodeBody(w, r, &req) {
		return
	}
	update, ok := st.update(w, req)
	if !ok {
		return
	}
	opts := []graph.RunOption{graph.WithThread(thread), graph.FromCheckpoint(cp)}
	if req.AsNode != "" {
		if req.AsNode == "END" || !slices.ContainsFunc(st.nodes, func(n nodeView) bool { return n.Top && n.Path == req.AsNode }) {
			writeError(w, http.StatusBadRequest, "as_node", "as_node %q: no such node in graph %s (its nodes: %s)", clip(req.AsNode), st.graph.Name(), st.topNodes())
			return
		}
		as := req.AsNode
		if as == "START" { // as the drawing names it: the update is a run's input
			as = graph.START
		}
		opts = append(opts, graph.AsNode(as))
	}
	if !st.exists(w, r, id, thread, cp) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	made, err := st.graph.UpdateState(ctx, update, opts...)
	if err != nil {
		st.o.Log.Warn().Err(err).Str("thread", thread).Str("checkpoint", cp).Msg("studio: update refused")
		writeError(w, http.StatusUnprocessableEntity, "", "thread %q, checkpoint %q: the update was refused: %v", id, cp, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"thread": id, "checkpoint": made, "parent": cp})
}

// update is the state holding only the edited field, or false after
// answering 400 with the field at fault.
func (st *studio[S]) update(w http.ResponseWriter, req forkRequest) (S, bool) {
	var zero S
	names := make([]string, len(st.fields))
	for i, f := range st.fields {
		names[i] = f.Name
	}
	switch {
	case req.Field == "":
		writeError(w, http.StatusBadRequest, "field", "field: missing; name one of the state's fields: %s", strings.Join(names, ", "))
		return zero, false
	case !slices.Contains(names, req.Field):
		writeError(w, http.StatusBadRequest, "field", "field %q: not a field of the state of graph %s (its fields: %s)", clip(req.Field), st.graph.Name(), strings.Join(names, ", "))
		return zero, false
	case len(req.Value) == 0:
		writeError(w, http.StatusBadRequest, "value", "value: missing; give the field's new value as JSON")
		return zero, false
	}
	body, err := json.Marshal(map[string]json.RawMessage{req.Field: req.Value})
	if err != nil {
		writeError(w, http.StatusBadRequest, "value", "value: %v", err)
		return zero, false
	}
	update, err := decodeStrict[S](body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "value", "value: not a value of field %q: %v", req.Field, err)
		return zero, false
	}
	if isZero(update) {
		writeError(w, http.StatusBadRequest, "value", "value: the zero value of field %q changes nothing: an edit is merged into the state as a node's output is, and a zero value leaves the field as it was", req.Field)
		return zero, false
	}
	return update, true
}

func (st *studio[S]) topNodes() string {
	var out []string
	for _, n := range st.nodes {
		if n.Top && n.Path != "END" {
			out = append(out, n.Path)
		}
	}
	return strings.Join(out, ", ")
}

// exists answers 404 unless the thread has the checkpoint.
func (st *studio[S]) exists(w http.ResponseWriter, r *http.Request, id, thread, cp string) bool {
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	_, err := st.store.Get(ctx, thread, cp)
	switch {
	case errors.Is(err, checkpoint.ErrNotFound):
		writeError(w, http.StatusNotFound, "checkpoint", "checkpoint %q: thread %q has no such checkpoint", cp, id)
		return false
	case err != nil:
		st.failed(w, fmt.Sprintf("read checkpoint %s of thread %s", cp, id), err)
		return false
	}
	return true
}

// decodeBody reads a JSON body of at most MaxBodyBytes into v, every name
// a field of v; false after answering 400 or 413.
func (st *studio[S]) decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, st.o.MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "", "body: over the limit of %d bytes", st.o.MaxBodyBytes)
			return false
		}
		writeError(w, http.StatusBadRequest, "", "body: not the JSON this call takes: %v", err)
		return false
	}
	return true
}

// failed answers 500 for a failure of the store or the graph, and logs it.
func (st *studio[S]) failed(w http.ResponseWriter, what string, err error) {
	st.o.Log.Error().Err(err).Msg("studio: " + what)
	writeError(w, http.StatusInternalServerError, "", "%s: %v", what, err)
}
