package nodes

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/events"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
	"github.com/sgrgraph/sgrgraph/tools"
)

// InjectionMode is how the plan enters the model context.
type InjectionMode string

// The injection modes (DESIGN §1): synthetic is the default.
const (
	// InjectSyntheticMessage appends one assistant message (analysis and
	// response); nothing of the tool call or its JSON.
	InjectSyntheticMessage InjectionMode = "synthetic"
	// InjectDirective appends the tool-call pair; the result is the rendered text.
	InjectDirective InjectionMode = "directive"
	// InjectTrace appends the tool-call pair with the raw plan JSON as result.
	InjectTrace InjectionMode = "trace"
)

// InjectSynthetic configures the injection of the plan.
type InjectSynthetic struct {
	// Routing is DT-002.
	Routing  *tables.Table
	Texts    *templates.Set
	Mode     InjectionMode
	Product  string
	Language string // the fallback answer language
}

// RoutingInputs reads DT-002's inputs off the state. Without a plan the
// request is taken as valid and understood: the agent answers the user's
// own words rather than the turn stopping on a planning failure.
func RoutingInputs(s *contracts.ChatState) map[string]any {
	in := map[string]any{"spam_score": 0.0, "intent_confidence": 1.0, "guardian_level": "N/A"}
	if s.Plan != nil {
		in["spam_score"], in["intent_confidence"] = s.Plan.SpamScore, s.Plan.IntentConfidence
	}
	if s.Moderation != nil && s.Moderation.Level != "" {
		in["guardian_level"] = string(s.Moderation.Level)
	}
	return in
}

// Node routes by DT-002, renders the action's template and appends it to
// the model context in the configured mode, the plan's text quoted as data
// so that neither the user nor the planning model can write a section or a
// field of the message. The UI gets the intent and the response section as
// plain text, never scores. Where the table and the model's own
// action disagree, the table wins and the diagnostics say so.
func (c InjectSynthetic) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		res, err := decide(s, c.Routing, RoutingInputs(s))
		if err != nil {
			return nil, err
		}
		action := contracts.Action(res.Get("action"))
		if s.Plan != nil && s.Plan.Action != action {
			s.Diagnostics.Overrides = append(s.Diagnostics.Overrides, contracts.Override{Table: c.Routing.ID, Rule: res.Rule,
				Field: "action", ModelValue: string(s.Plan.Action), TableValue: string(action)})
		}
		s.Action = action
		plan := contracts.SGRPlan{UserIntent: s.UserMessage, Subqueries: []string{s.UserMessage}}
		if s.Plan != nil {
			plan = *s.Plan
		}
		lang := answerLanguage(s, c.Texts, c.Language)
		r, err := c.Texts.Render(action, lang, templates.Data{Plan: plan, Moderation: s.Moderation, Product: c.Product})
		if err != nil {
			return nil, err
		}
		if err := c.inject(s, r, plan); err != nil {
			return nil, err
		}
		prefix, err := text(c.Texts, lang, "user_intent_prefix", c.Product)
		if err != nil {
			return nil, err
		}
		if s.Plan != nil {
			// The intent is the model's text: one plain line, as in the response.
			addUI(ctx, s, contracts.UIIntent, "**"+prefix+"**\n\n"+templates.Escape(plan.UserIntent))
		}
		addUI(ctx, s, responseType(action), r.UserResponse)
		if action != contracts.ActionNormal {
			s.Answer = r.UserResponse
		}
		if action == contracts.ActionGuardianBlock {
			// In report mode the message reached the planner; later turns
			// must not show it to a model again.
			placeholder, err := text(c.Texts, lang, "blocked_message_placeholder", c.Product)
			if err != nil {
				return nil, err
			}
			replaceUserMessage(s, placeholder)
		}
		return s, nil
	}
}

func (c InjectSynthetic) inject(s *contracts.ChatState, r templates.Rendered, plan contracts.SGRPlan) error {
	switch c.Mode {
	case InjectSyntheticMessage, "":
		s.Messages = append(s.Messages, schema.AssistantMessage(r.Message(), nil))
		return nil
	case InjectDirective, InjectTrace:
		args, err := json.Marshal(plan)
		if err != nil {
			return fmt.Errorf("encode plan: %w", err)
		}
		id := fmt.Sprintf("sgr_%s_%d", s.SessionID, s.Turn)
		call := schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: tools.SGRToolName, Arguments: string(args)}}
		result := r.Message()
		if c.Mode == InjectTrace {
			result = string(args)
		}
		s.Messages = append(s.Messages, schema.AssistantMessage("", []schema.ToolCall{call}),
			schema.ToolMessage(result, id, schema.WithToolName(tools.SGRToolName)))
		return nil
	}
	return fmt.Errorf("injection mode %q: want synthetic, directive or trace", c.Mode)
}

func responseType(a contracts.Action) contracts.UIType {
	switch a {
	case contracts.ActionClarify:
		return contracts.UIClarification
	case contracts.ActionBlock, contracts.ActionGuardianBlock:
		return contracts.UIRefusal
	}
	return contracts.UIResponse
}

// addUI appends a UI message and reports it.
func addUI(ctx context.Context, s *contracts.ChatState, t contracts.UIType, content string) {
	m := contracts.UIMessage{Type: t, Content: content}
	s.UI = append(s.UI, m)
	events.Emit(ctx, contracts.Event{Kind: contracts.EventUI, UI: &m})
}
