package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// writeWindow is how long one write of a run's stream may take: a page
// that reads slower than this is dropped.
const writeWindow = 30 * time.Second

// runRequest starts a run on a thread: a new input (Input's text), a
// replay from a checkpoint (Checkpoint and no input), or an answer to the
// pending interrupts (Resume, as JSON).
type runRequest struct {
	Input      *string         `json:"input"`
	Checkpoint string          `json:"checkpoint"`
	Resume     json.RawMessage `json:"resume"`
}

// run streams a run as server-sent events: "node" for a node's start and
// end (path, event, attempt, duration_ms, error), "update" for the fields
// a node changed (path, fields), then one of "done" (the run ended),
// "interrupted" (it paused: the interrupts) or "error" (it failed). Each
// run writes a checkpoint before every node (graph.DurabilitySync), so the
// thread shows every step.
func (st *studio[S]) run(w http.ResponseWriter, r *http.Request) {
	id, thread := st.threadOf(w, r)
	if thread == "" {
		return
	}
	var req runRequest
	if !st.decodeBody(w, r, &req) {
		return
	}
	var input S
	opts := []graph.RunOption{graph.WithThread(thread), graph.WithDurability(graph.DurabilitySync),
		graph.WithStreamModes(graph.StreamDebug, graph.StreamUpdates)}
	switch {
	case req.Input != nil && len(req.Resume) > 0:
		writeError(w, http.StatusBadRequest, "resume", "resume: give an input or an answer to the pending interrupts, not both")
		return
	case req.Input != nil:
		var err error
		if input, err = st.o.Input(*req.Input); err != nil {
			writeError(w, http.StatusBadRequest, "input", "%v", err)
			return
		}
	case len(req.Resume) > 0:
		var value any
		if err := json.Unmarshal(req.Resume, &value); err != nil {
			writeError(w, http.StatusBadRequest, "resume", "resume: not JSON: %v", err)
			return
		}
		opts = append(opts, graph.WithResume(value))
	}
	if req.Checkpoint != "" {
		if !validID(req.Checkpoint) {
			writeError(w, http.StatusBadRequest, "checkpoint", "checkpoint %q: 1 to %d letters, digits, '-', '_', '.' or ':'", clip(req.Checkpoint), maxID)
			return
		}
		if !st.exists(w, r, id, thread, req.Checkpoint) {
			return
		}
		opts = append(opts, graph.FromCheckpoint(req.Checkpoint))
	} else if req.Input == nil && !st.started(w, r, id, thread) {
		return
	}
	if _, busy := st.running.LoadOrStore(thread, struct{}{}); busy {
		writeError(w, http.StatusConflict, "thread", "thread %q: a run of the studio is running on it; wait for it to end", id)
		return
	}
	defer st.running.Delete(thread)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), st.o.RunTimeout)
	defer cancel()
	stop := context.AfterFunc(r.Context(), cancel) // a page that leaves stops its run
	defer stop()
	if st.o.Lock != nil {
		release, err := st.o.Lock(ctx, thread)
		if err != nil {
			writeError(w, http.StatusConflict, "thread", "thread %q: %v", id, err)
			return
		}
		defer release()
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ev := &events{w: w, rc: http.NewResponseController(w)}
	var runErr error
	for c, err := range st.graph.Stream(ctx, input, opts...) {
		if err != nil {
			runErr = err
			break
		}
		switch c.Mode {
		case graph.StreamDebug:
			d := c.Debug
			ev.send("node", map[string]any{"path": c.Path, "event": d.Event, "attempt": d.Attempt,
				"duration_ms": float64(d.Duration.Microseconds()) / 1000, "error": d.Error})
		case graph.StreamUpdates:
			fields := make([]string, 0, len(c.Update))
			for f := range c.Update {
				fields = append(fields, f)
			}
			slices.Sort(fields)
			ev.send("update", map[string]any{"path": c.Path, "fields": fields})
		}
		if ev.err != nil {
			return // the page is gone: leaving the loop cancels the run
		}
	}
	var paused *graph.InterruptError
	switch {
	case errors.As(runErr, &paused):
		ev.send("interrupted", map[string]any{"checkpoint": paused.Checkpoint, "interrupts": paused.Waiting()})
	case runErr != nil:
		st.o.Log.Warn().Err(runErr).Str("thread", thread).Msg("studio: run failed")
		ev.send("error", map[string]any{"message": runErr.Error()})
	default:
		ev.send("done", map[string]any{"thread": id})
	}
}

// started answers 404 unless the thread has a checkpoint to go on from.
func (st *studio[S]) started(w http.ResponseWriter, r *http.Request, id, thread string) bool {
	ctx, cancel := context.WithTimeout(r.Context(), storeTimeout)
	defer cancel()
	_, err := st.store.Latest(ctx, thread)
	switch {
	case errors.Is(err, checkpoint.ErrNotFound):
		writeError(w, http.StatusNotFound, "thread", "thread %q: no checkpoint to go on from; give an input to start it", id)
		return false
	case err != nil:
		st.failed(w, "read thread "+id, err)
		return false
	}
	return true
}

// events writes server-sent events, each within writeWindow; the first
// failed write is kept and ends the writing.
type events struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func (e *events) send(name string, v any) {
	if e.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"message": "encode event: " + err.Error()})
		name = "error"
	}
	_ = e.rc.SetWriteDeadline(time.Now().Add(writeWindow))
	if _, e.err = fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, data); e.err == nil {
		e.err = e.rc.Flush()
	}
}
