package runs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// Status is where a run is.
type Status string

// The statuses of a run: queued until a worker takes it, running while one
// has it, then done (a result), failed (an error) or interrupted (its
// draft waits for a person's review: Run.Interrupt).
const (
	Queued      Status = "queued"
	Running     Status = "running"
	Done        Status = "done"
	Failed      Status = "failed"
	Interrupted Status = "interrupted"
)

// Finished says the run has ended: with its result, its error, or its
// draft held for review (no worker runs it again; a reviewer's resume
// continues its thread).
func (s Status) Finished() bool { return s == Done || s == Failed || s == Interrupted }

// Spec is a turn as it is queued: agent.Turn without its event sink.
type Spec struct {
	Message   string            `json:"message"`
	SessionID string            `json:"session_id,omitempty"`
	Number    int               `json:"number,omitempty"`
	History   []*schema.Message `json:"history,omitempty"`
	Thread    string            `json:"thread,omitempty"`
	Role      string            `json:"role,omitempty"`
	Language  string            `json:"language,omitempty"`
	// User and Tenant name whose long-term memory the turn reads and
	// writes (agent.Turn's fields of those names).
	User   string `json:"user,omitempty"`
	Tenant string `json:"tenant,omitempty"`
	// Assistant, when set, is the assistant's version that runs the turn,
	// "name@version" (agent.Ref): the worker builds its agent from the
	// assistants kept in the thread store (Worker.Assistants).
	Assistant string `json:"assistant,omitempty"`
	// Webhook, when set, is the URL the run's end is posted to, signed
	// with WebhookSecret (see webhook.go); neither is part of the turn.
	Webhook       string `json:"webhook,omitempty"`
	WebhookSecret string `json:"webhook_secret,omitempty"`
}

// SpecOf is the queued form of t.
func SpecOf(t agent.Turn) Spec {
	return Spec{Message: t.Message, SessionID: t.SessionID, Number: t.Number, History: t.History,
		Thread: t.Thread, Role: t.Role, Language: t.Language, User: t.User, Tenant: t.Tenant}
}

// Turn is the turn a worker runs.
func (s Spec) Turn() agent.Turn {
	return agent.Turn{Message: s.Message, SessionID: s.SessionID, Number: s.Number, History: s.History,
		Thread: s.Thread, Role: s.Role, Language: s.Language, User: s.User, Tenant: s.Tenant}
}

// Run is one queued turn and what became of it.
type Run struct {
	ID     string `json:"id"`
	Owner  string `json:"-"`
	Status Status `json:"status"`
	Spec   Spec   `json:"-"`
	// Attempts counts the workers that took the run.
	Attempts int                         `json:"attempts"`
	Result   *contracts.StructuredResult `json:"result,omitempty"`
	Error    string                      `json:"error,omitempty"`
	// Interrupt is the review a run that ended Interrupted waits for.
	Interrupt *Interrupt `json:"interrupt,omitempty"`
	Created   time.Time  `json:"created_at"`
	Started   *time.Time `json:"started_at,omitempty"`
	Finished  *time.Time `json:"finished_at,omitempty"`
	// Limits are how long the run may take, as recorded in it.
	Limits Limits `json:"-"`
	// Webhook is the delivery of the run's end to its Spec.Webhook; nil
	// without one.
	Webhook *WebhookDelivery `json:"webhook,omitempty"`
}

// Limits are what a run may take, as its submitter and the worker of its
// latest attempt recorded them; Wait waits as long as they say. A zero
// field was not recorded (a run queued before the runs recorded limits,
// or not started yet): Wait takes its Queue's option, or the Worker's
// default turn timeout, instead.
type Limits struct {
	// QueueWait is the submitter's Options.QueueWait.
	QueueWait time.Duration
	// TurnTimeout and Claim are the Worker.TurnTimeout and Options.Claim
	// of the worker that started the latest attempt.
	TurnTimeout, Claim time.Duration
}

// MaxIDBytes bounds a run id; its characters are safe in any key.
const MaxIDBytes = 160

// CheckID refuses an id a run cannot have.
func CheckID(id string) error {
	if id == "" || len(id) > MaxIDBytes {
		return fmt.Errorf("id: 1 to %d bytes, not %d", MaxIDBytes, len(id))
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return fmt.Errorf("id: %q has a character other than letters, digits, '-', '_', '.' and ':'", id)
		}
	}
	return nil
}

// NewID returns a fresh run id.
func NewID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails since Go 1.24
	return "run_" + hex.EncodeToString(b[:])
}

// ErrTaken is returned by Submit for an id another owner's run has.
var ErrTaken = errors.New("runs: the id belongs to another owner's run")

// Submit queues a turn under id (NewID for a fresh one) for owner, who alone
// sees it. Submitting an id that exists queues nothing and returns the run
// as it is: a client that retries, or restarts, does not run a turn twice.
// A run that failed is the exception: submitting it again queues it again.
func (q *Queue) Submit(ctx context.Context, owner, id string, spec Spec) (Run, error) {
	if err := CheckID(id); err != nil {
		return Run{}, err
	}
	data, err := json.Marshal(spec)
	if err != nil {
		return Run{}, fmt.Errorf("runs: submit %s: %w", id, err)
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	now := time.Now().UTC()
	n, err := q.scripts.submit.Run(cctx, q.client, []string{q.runKey(id), q.stream(), q.eventKey(id)},
		id, owner, data, now.UnixMilli(), q.opts.QueueWait.Milliseconds()).Int()
	if err != nil {
		return Run{}, fmt.Errorf("runs: submit %s: %w", id, err)
	}
	if n < 0 {
		return Run{}, ErrTaken
	}
	if n == 1 {
		return Run{ID: id, Owner: owner, Status: Queued, Spec: spec, Created: now.Truncate(time.Millisecond),
			Limits: Limits{QueueWait: q.opts.QueueWait.Truncate(time.Millisecond)}}, nil
	}
	return q.Get(ctx, owner, id)
}

// Get returns owner's run id; ErrNotFound if it has none of that id.
func (q *Queue) Get(ctx context.Context, owner, id string) (Run, error) {
	if CheckID(id) != nil {
		return Run{}, ErrNotFound
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	h, err := q.client.HGetAll(cctx, q.runKey(id)).Result()
	if err != nil {
		return Run{}, fmt.Errorf("runs: get %s: %w", id, err)
	}
	if len(h) == 0 || h["owner"] != owner {
		return Run{}, ErrNotFound
	}
	return runOf(id, h)
}

// runOf reads a run's hash.
func runOf(id string, h map[string]string) (Run, error) {
	r := Run{ID: id, Owner: h["owner"], Status: Status(h["status"]), Error: h["error"]}
	bad := func(field string, err error) (Run, error) {
		return Run{}, fmt.Errorf("runs: run %s: field %s: %w", id, field, err)
	}
	if err := json.Unmarshal([]byte(h["spec"]), &r.Spec); err != nil {
		return bad("spec", err)
	}
	var err error
	if r.Attempts, err = strconv.Atoi(h["attempts"]); err != nil {
		return bad("attempts", err)
	}
	for _, t := range []struct {
		field string
		to    **time.Time
	}{{"started", &r.Started}, {"finished", &r.Finished}} {
		if h[t.field] == "" {
			continue
		}
		ms, err := strconv.ParseInt(h[t.field], 10, 64)
		if err != nil {
			return bad(t.field, err)
		}
		at := time.UnixMilli(ms).UTC()
		*t.to = &at
	}
	ms, err := strconv.ParseInt(h["created"], 10, 64)
	if err != nil {
		return bad("created", err)
	}
	r.Created = time.UnixMilli(ms).UTC()
	for _, l := range []struct {
		field string
		to    *time.Duration
	}{{"queue_wait", &r.Limits.QueueWait}, {"turn_timeout", &r.Limits.TurnTimeout}, {"claim", &r.Limits.Claim}} {
		if h[l.field] == "" {
			continue
		}
		ms, err := strconv.ParseInt(h[l.field], 10, 64)
		if err != nil {
			return bad(l.field, err)
		}
		*l.to = time.Duration(ms) * time.Millisecond
	}
	if r.Spec.Webhook != "" {
		r.Webhook = &WebhookDelivery{URL: r.Spec.Webhook, LastError: h["webhook_error"]}
		r.Webhook.Attempts, _ = strconv.Atoi(h["webhook_attempts"])
		r.Webhook.LastStatus, _ = strconv.Atoi(h["webhook_status"])
		if ms, err := strconv.ParseInt(h["webhook_delivered"], 10, 64); err == nil {
			at := time.UnixMilli(ms).UTC()
			r.Webhook.Delivered = &at
		}
	}
	if h["interrupt"] != "" {
		var in interruptRecord
		if err := json.Unmarshal([]byte(h["interrupt"]), &in); err != nil {
			return bad("interrupt", err)
		}
		in.Interrupt.Thread = in.Thread
		r.Interrupt = &in.Interrupt
	}
	if h["result"] != "" {
		r.Result = new(contracts.StructuredResult)
		if err := json.Unmarshal([]byte(h["result"]), r.Result); err != nil {
			return bad("result", err)
		}
	}
	return r, nil
}
