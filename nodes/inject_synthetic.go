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

// The injection modes (docs/node-inject-synthetic.md): synthetic is the default.
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
	// Routing is DT-002; Outputs is DT-004.
	Routing, Outputs *tables.Table
	Texts            *templates.Set
	Mode             InjectionMode
	Product          string
	Language         string // the fallback answer language
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

// Node routes by DT-002, renders the action's template and hands it to
// the output channels as DT-004 says: the model context in the configured
// mode, the plan's text quoted as data so that neither the user nor the
// planning model can write a section or a field of the message; the UI the
// intent and the response section as plain text, never scores. Where the
// table and the model's own action disagree, the table wins and the
// diagnostics say so.
func (c InjectSynthetic) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		if !c.Mode.valid() {
			return nil, fmt.Errorf("injection mode %q: want synthetic, directive or trace", c.Mode)
		}
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
		toModel, err := route(s, c.Outputs, ChannelContext)
		if err != nil {
			return nil, err
		}
		if err := c.inject(s, r, plan, toModel); err != nil {
			return nil, err
		}
		toUser, err := route(s, c.Outputs, ChannelUI)
		if err != nil {
			return nil, err
		}
		if err := c.show(ctx, s, r, plan, lang, toUser); err != nil {
			return nil, err
		}
		if _, err := route(s, c.Outputs, ChannelMetadata); err != nil { // the result reads it (MetadataChannel)
			return nil, err
		}
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

func (m InjectionMode) valid() bool {
	return m == "" || m == InjectSyntheticMessage || m == InjectDirective || m == InjectTrace
}

// inject adds the plan to the model context: the sections DT-004 allows,
// as one synthetic assistant message, or as a tool-call pair when the
// table lets the tool trace in or the mode asks for one (directive, trace;
// trace and a table that lets the structured data in put the plan's JSON
// in the tool result).
func (c InjectSynthetic) inject(s *contracts.ChatState, r templates.Rendered, plan contracts.SGRPlan, ch Channel) error {
	text := r.Sections(ch.Analysis, ch.Response)
	if !ch.ToolTrace && (c.Mode == InjectSyntheticMessage || c.Mode == "") {
		if text != "" {
			s.Messages = append(s.Messages, contracts.MarkSynthetic(schema.AssistantMessage(text, nil), plan.Action, s.Turn))
		}
		return nil
	}
	args, err := json.Marshal(plan)
	if err != nil {
		return fmt.Errorf("encode plan: %w", err)
	}
	id := fmt.Sprintf("sgr_%s_%d", s.SessionID, s.Turn)
	call := schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: tools.SGRToolName, Arguments: string(args)}}
	if ch.StructuredData || c.Mode == InjectTrace {
		text = string(args)
	}
	s.Messages = append(s.Messages, contracts.MarkSynthetic(schema.AssistantMessage("", []schema.ToolCall{call}), plan.Action, s.Turn),
		contracts.MarkSynthetic(schema.ToolMessage(text, id, schema.WithToolName(tools.SGRToolName)), plan.Action, s.Turn))
	return nil
}

// show adds what DT-004 lets the person see: by default the intent (as the
// plan understood it) and the response section, plain text.
func (c InjectSynthetic) show(ctx context.Context, s *contracts.ChatState, r templates.Rendered, plan contracts.SGRPlan, lang string, ch Channel) error {
	if ch.Analysis {
		addUI(ctx, s, contracts.UIAnalysis, r.Analysis)
	}
	if ch.ToolTrace || ch.StructuredData {
		data, err := json.Marshal(plan)
		if err != nil {
			return fmt.Errorf("encode plan: %w", err)
		}
		addUI(ctx, s, contracts.UIPlan, string(data))
	}
	if !ch.Response {
		return nil
	}
	if plan.RequestType == contracts.RequestCasual && s.Action == contracts.ActionNormal {
		// "hi" needs neither saying back nor "I'll look this up": the
		// reply to it is the whole answer, and no search is made.
		return nil
	}
	// A Guardian's refusal shows the refusal alone (seed 000 template 4):
	// saying back how an unsafe request was understood repeats it.
	if s.Plan != nil && s.Action != contracts.ActionGuardianBlock {
		prefix, err := text(c.Texts, lang, "user_intent_prefix", c.Product)
		if err != nil {
			return err
		}
		// The intent is the model's text: one plain line, as in the response.
		addUI(ctx, s, contracts.UIIntent, "**"+prefix+"**\n\n"+templates.Escape(plan.UserIntent))
	}
	addUI(ctx, s, responseType(s.Action), r.UserResponse)
	return nil
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
