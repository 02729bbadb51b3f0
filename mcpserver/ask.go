package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
)

// AskInput is the input of ask and ask_structured.
type AskInput struct {
	Question  string `json:"question" jsonschema:"the question, in the user's own words"`
	Language  string `json:"language,omitempty" jsonschema:"the answer language, ru or en; when omitted, the language of the question"`
	SessionID string `json:"session_id,omitempty" jsonschema:"continue the conversation kept under this id, so earlier turns are remembered (only on a server that keeps threads)"`
	Assistant string `json:"assistant,omitempty" jsonschema:"the assistant that answers, name or name@version (GET /v1/assistants lists them); when omitted, the server's own configuration, or the one the conversation ran"`
}

// maxSessionIDRunes bounds a session id: it names a thread in the store.
const maxSessionIDRunes = 200

// maxAssistantRunes bounds an assistant's name@version.
const maxAssistantRunes = 80

// askSchema is AskInput's schema with its limits.
func askSchema() *jsonschema.Schema {
	return schemaOf[AskInput](func(s *jsonschema.Schema) {
		s.Properties["question"].MaxLength = ptr(agent.MaxMessageRunes)
		s.Properties["language"].Enum = []any{"ru", "en"}
		s.Properties["session_id"].MaxLength = ptr(maxSessionIDRunes)
		s.Properties["assistant"].MaxLength = ptr(maxAssistantRunes)
	})
}

func addAskTools(s *mcp.Server, h handlers) {
	s.AddTool(&mcp.Tool{
		Name:        "ask",
		Title:       "Ask the documentation",
		Description: "Answer a question from the product documentation. The answer is checked by a guard before it is returned and cites its sources as [1], [2], listed after it.",
		InputSchema: askSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, handler(h.ask))
	s.AddTool(&mcp.Tool{
		Name:  "ask_structured",
		Title: "Ask the documentation (structured result)",
		Description: "Like ask, but returns everything the turn produced as JSON: the action, the answer, the guard's verdict, " +
			"the evidence and articles it rests on, the decision-table rows that fired and diagnostics.",
		InputSchema: askSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, handler(h.askStructured))
}

// ask returns the answer text with its sources: what a person reads.
// A draft held for a person's review is no answer: the result says it
// waits (isError, with the thread and interrupt a reviewer resumes).
func (h handlers) ask(ctx context.Context, in AskInput) (*mcp.CallToolResult, error) {
	res, held, err := h.turn(ctx, "ask", in)
	if held != nil {
		return held.result()
	}
	if err != nil {
		return nil, err
	}
	// The answer ends with the sources its [1], [2] point to (finalize
	// lists them), as a person reads it.
	text := strings.TrimSpace(res.Answer)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
}

// askStructured returns the whole result. It declares no output schema:
// one inferred from StructuredResult would be large, and would reject the
// lists a turn may leave nil (null, not []).
func (h handlers) askStructured(ctx context.Context, in AskInput) (*mcp.CallToolResult, error) {
	res, held, err := h.turn(ctx, "ask_structured", in)
	if held != nil {
		return held.result()
	}
	if err != nil {
		return nil, err
	}
	return jsonResult(res)
}

// heldReview is the result of a turn whose draft waits for a person's
// review (guardian.human_review): the status "interrupted", the thread as
// reviewers name it (GET /v1/reviews, POST /v1/threads/{thread_id}/resume)
// and the interrupt the resume answers.
type heldReview struct {
	Status      string `json:"status"` // interrupted
	ThreadID    string `json:"thread_id"`
	InterruptID string `json:"interrupt_id"`
	Turn        int    `json:"turn"`
	Reason      string `json:"reason"`
}

// result is the tool result of a held draft: an error result (isError),
// so that no caller takes it for an answer, carrying the ids as
// structured content and in its text.
func (p *heldReview) result() (*mcp.CallToolResult, error) {
	res, err := jsonResult(p)
	if err != nil {
		return nil, err
	}
	res.IsError = true
	res.Content = []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("No answer yet: the draft waits for a person's review (%s). "+
		"A reviewer resumes thread %s, interrupt %s (POST /v1/threads/%s/resume); the outcome is then on the conversation. %s",
		p.Reason, p.ThreadID, p.InterruptID, p.ThreadID, mustJSON(p))}}
	return res, nil
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// reviewThreadID names a held thread for reviewers as GET /v1/reviews
// does: OWNER~SESSION for OWNER/SESSION, ~THREAD for a thread the agent
// made itself (runs.ReviewThreadID, which this package may not import).
func reviewThreadID(thread string) string {
	owner, session, ok := strings.Cut(thread, "/")
	if !ok {
		return "~" + thread
	}
	return owner + "~" + session
}

// turn checks the input and runs one turn. Its errors are the tool's
// errors: they name the field at fault, or say why the turn gave no
// answer; held is set instead when the draft waits for a person.
func (h handlers) turn(ctx context.Context, tool string, in AskInput) (res contracts.StructuredResult, held *heldReview, err error) {
	q := strings.TrimSpace(in.Question)
	switch n := len([]rune(q)); {
	case n == 0:
		return res, nil, errors.New("question: must not be empty")
	case n > agent.MaxMessageRunes:
		return res, nil, fmt.Errorf("question: %d characters, over the limit of %d", n, agent.MaxMessageRunes)
	}
	if in.Language != "" && in.Language != "ru" && in.Language != "en" {
		return res, nil, fmt.Errorf("language: %q is not ru or en", in.Language)
	}
	if n := len([]rune(in.SessionID)); n > maxSessionIDRunes {
		return res, nil, fmt.Errorf("session_id: %d characters, over the limit of %d", n, maxSessionIDRunes)
	}
	if n := len([]rune(in.Assistant)); n > maxAssistantRunes {
		return res, nil, fmt.Errorf("assistant: %d characters, over the limit of %d", n, maxAssistantRunes)
	}
	start := time.Now()
	t := agent.Turn{SessionID: cmp.Or(in.SessionID, newSessionID()), Message: q, Language: in.Language, Thread: in.SessionID}
	if o := owner(ctx); o != "" && in.SessionID != "" {
		t.Thread = o + "/" + in.SessionID // as the HTTP API names a key's session: the same conversation
	}
	a, ref, release, err := h.agentOf(ctx, t.Thread, in.Assistant)
	if err != nil {
		return res, nil, err
	}
	defer release()
	res, err = a.Run(h.log.WithContext(ctx), t)
	ev := h.log.Info()
	if f, ok := models.FailureOf(err); ok {
		ev = h.log.Error().Str("node", f.Node).Str("host", f.Host).Str("cause", string(f.Cause)).Int("upstream_status", f.Status)
	} else if err != nil {
		ev = h.log.Warn().Err(err)
	}
	if ref.Name != "" {
		ev = ev.Str("assistant", ref.String())
	}
	ev.Str("tool", tool).Str("session", t.SessionID).Str("action", string(res.Action)).Dur("took", time.Since(start)).Msg("mcp turn")
	if held := h.heldOf(ctx, a, t.Thread, ref, err); held != nil {
		return res, held, nil
	}
	return res, nil, turnError(in.SessionID, err)
}

// heldOf is the review a paused turn waits for; nil for any other end. A
// turn without a session paused in a thread the agent made: when an
// assistant ran it, that thread is bound to the assistant here, so that
// the resume runs the same configuration.
func (h handlers) heldOf(ctx context.Context, a *agent.Agent, session string, ref agent.Ref, err error) *heldReview {
	thread, req, paused := agent.Paused(err)
	if !paused {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	held := &heldReview{Status: "interrupted", ThreadID: reviewThreadID(thread), Reason: req.Reason}
	p, perr := a.PendingReview(ctx, thread)
	if perr != nil || p == nil {
		h.log.Error().Err(perr).Str("thread", thread).Msg("reading the held draft of an mcp turn")
	} else {
		held.InterruptID, held.Turn = p.InterruptID, p.Turn
	}
	if ref.Name != "" && session == "" {
		if berr := h.assistants.Bind(ctx, thread, ref); berr != nil {
			h.log.Error().Err(berr).Str("thread", thread).Msg("recording the assistant of a held mcp turn's thread: its resume takes the server's configuration")
		}
	}
	h.log.Info().Str("thread", held.ThreadID).Str("interrupt", held.InterruptID).Msg("mcp turn held for human review")
	return held
}

// agentOf is the agent that runs a turn of thread ("" for none): the
// assistant named, or the one the conversation ran, else the server's
// own. A conversation keeps the version its first turn ran; naming
// another, or naming one on a conversation the server's configuration
// ran, is refused. ref names the assistant's version ("" for the
// server's own); release gives its agent back.
func (h handlers) agentOf(ctx context.Context, thread, named string) (a *agent.Agent, ref agent.Ref, release func(), err error) {
	noop := func() {}
	as := h.assistants
	if named == "" && (as == nil || thread == "") {
		return h.agent, ref, noop, nil
	}
	if as == nil {
		return nil, ref, nil, errors.New("assistant: this server serves no assistants")
	}
	if named != "" {
		if ref, err = agent.ParseRef(named); err != nil {
			return nil, ref, nil, fmt.Errorf("assistant: %w", err)
		}
	}
	bind := false
	if thread != "" {
		bound, ok, err := as.Bound(ctx, thread)
		if err != nil {
			return nil, ref, nil, fmt.Errorf("the turn failed: reading the conversation's assistant: %w", err)
		}
		switch {
		case ok && named != "" && (ref.Name != bound.Name || ref.Version != 0 && ref.Version != bound.Version):
			return nil, ref, nil, fmt.Errorf("assistant: this conversation runs assistant %s, not %s; use another session_id for another assistant", bound, ref)
		case ok:
			ref = bound
		case named == "":
			return h.agent, ref, noop, nil
		default:
			if _, err := h.agent.Store().Latest(ctx, thread); err == nil {
				return nil, ref, nil, fmt.Errorf("assistant: this conversation runs the server's own configuration, not assistant %s; use another session_id for an assistant", ref)
			} else if !errors.Is(err, checkpoint.ErrNotFound) {
				return nil, ref, nil, fmt.Errorf("the turn failed: reading the conversation: %w", err)
			}
			bind = true
		}
	}
	a, at, release, err := as.Agent(ctx, ref)
	switch {
	case errors.Is(err, agent.ErrNoAssistant):
		return nil, ref, nil, fmt.Errorf("assistant: %w", err)
	case err != nil:
		h.log.Error().Err(err).Str("assistant", ref.String()).Msg("building an assistant")
		return nil, ref, nil, fmt.Errorf("the turn failed: assistant %s could not be built; the server's log says why", ref)
	}
	if bind {
		if err := as.Bind(ctx, thread, at); err != nil {
			release()
			return nil, ref, nil, fmt.Errorf("the turn failed: keeping the conversation's assistant: %w", err)
		}
	}
	return a, at, release, nil
}

// turnError says why a turn returned no result, in words for the caller.
func turnError(session string, err error) error {
	if err == nil {
		return nil
	}
	if f, ok := models.FailureOf(err); ok {
		// The tool's error is the caller's; the host stays in the log.
		return fmt.Errorf("the turn failed: the assistant's model service did not answer (%s at %s); try again later", f.Cause, f.Node)
	}
	if errors.Is(err, agent.ErrThreadBusy) {
		// Its holder names a process and host: that stays in the log.
		return errors.New("session_id: another turn of this conversation is running; call again when it has finished")
	}
	if thread, req, held := agent.Paused(err); held {
		return fmt.Errorf("the answer is held for a person's review (%s) and is not released until a reviewer resumes thread %q", req.Reason, thread)
	}
	// The agent was built without a store (agent.Options.Store).
	if session != "" && errors.Is(err, agent.ErrNoStore) {
		return errors.New("session_id: this server keeps no conversations (it was started without a thread store); call again without session_id")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the turn was cancelled: %w", err)
	}
	return fmt.Errorf("the turn failed: %w", err)
}

// newSessionID is a random id for a turn that continues no conversation.
func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}
