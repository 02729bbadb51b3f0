package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
)

// AskInput is the input of ask and ask_structured.
type AskInput struct {
	Question  string `json:"question" jsonschema:"the question, in the user's own words"`
	Language  string `json:"language,omitempty" jsonschema:"the answer language, ru or en; when omitted, the language of the question"`
	SessionID string `json:"session_id,omitempty" jsonschema:"continue the conversation kept under this id, so earlier turns are remembered (only on a server that keeps threads)"`
}

// maxSessionIDRunes bounds a session id: it names a thread in the store.
const maxSessionIDRunes = 200

// askSchema is AskInput's schema with its limits.
func askSchema() *jsonschema.Schema {
	return schemaOf[AskInput](func(s *jsonschema.Schema) {
		s.Properties["question"].MaxLength = ptr(agent.MaxMessageRunes)
		s.Properties["language"].Enum = []any{"ru", "en"}
		s.Properties["session_id"].MaxLength = ptr(maxSessionIDRunes)
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
func (h handlers) ask(ctx context.Context, in AskInput) (*mcp.CallToolResult, error) {
	res, err := h.turn(ctx, "ask", in)
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
	res, err := h.turn(ctx, "ask_structured", in)
	if err != nil {
		return nil, err
	}
	return jsonResult(res)
}

// turn checks the input and runs one turn. Its errors are the tool's
// errors: they name the field at fault, or say why the turn gave no answer.
func (h handlers) turn(ctx context.Context, tool string, in AskInput) (contracts.StructuredResult, error) {
	q := strings.TrimSpace(in.Question)
	switch n := len([]rune(q)); {
	case n == 0:
		return contracts.StructuredResult{}, errors.New("question: must not be empty")
	case n > agent.MaxMessageRunes:
		return contracts.StructuredResult{}, fmt.Errorf("question: %d characters, over the limit of %d", n, agent.MaxMessageRunes)
	}
	if in.Language != "" && in.Language != "ru" && in.Language != "en" {
		return contracts.StructuredResult{}, fmt.Errorf("language: %q is not ru or en", in.Language)
	}
	if n := len([]rune(in.SessionID)); n > maxSessionIDRunes {
		return contracts.StructuredResult{}, fmt.Errorf("session_id: %d characters, over the limit of %d", n, maxSessionIDRunes)
	}
	start := time.Now()
	t := agent.Turn{SessionID: cmp.Or(in.SessionID, newSessionID()), Message: q, Language: in.Language, Thread: in.SessionID}
	if o := owner(ctx); o != "" && in.SessionID != "" {
		t.Thread = o + "/" + in.SessionID // as the HTTP API names a key's session: the same conversation
	}
	res, err := h.agent.Run(h.log.WithContext(ctx), t)
	ev := h.log.Info()
	if f, ok := models.FailureOf(err); ok {
		ev = h.log.Error().Str("node", f.Node).Str("host", f.Host).Str("cause", string(f.Cause)).Int("upstream_status", f.Status)
	} else if err != nil {
		ev = h.log.Warn().Err(err)
	}
	ev.Str("tool", tool).Str("session", t.SessionID).Str("action", string(res.Action)).Dur("took", time.Since(start)).Msg("mcp turn")
	return res, turnError(in.SessionID, err)
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
