package nodes

import (
	"context"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/guards"
	"github.com/sgrgraph/sgrgraph/guards/safety"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
)

// GuardianVerify configures the Guardian at the door.
type GuardianVerify struct {
	Classifier safety.Classifier
	// Policy is the query policy (L0); nil allows everything.
	Policy *guards.QueryPolicy
	// Enforcement is DT-001.
	Enforcement *tables.Table
	// Mode is contracts.GuardEnforce or contracts.GuardReport.
	Mode string
	// Disabled skips the classifier (guard.enabled: false): the level is
	// N/A, and the query policy and DT-001 still decide.
	Disabled bool
	Texts    *templates.Set
	Product  string
	Language string // the fallback answer language
}

// EnforcementInputs reads DT-001's inputs off the state; the node and the
// edge after it evaluate the table on the same inputs.
func EnforcementInputs(mode string) func(s *contracts.ChatState) map[string]any {
	return func(s *contracts.ChatState) map[string]any {
		level := contracts.LevelUnknown
		if s.Moderation != nil && s.Moderation.Level != "" {
			level = s.Moderation.Level
		}
		policy := contracts.PolicyAllow
		if s.Policy != nil && s.Policy.Decision != "" {
			policy = s.Policy.Decision
		}
		return map[string]any{"guardian_level": string(level), "guard_mode": mode, "policy": string(policy)}
	}
}

// Node classifies the user message, checks the query policy and applies
// DT-001. A blocked message makes no model call: the turn is marked
// guardian_block (block with a FAIL verdict when the policy denied it) and
// the message is replaced in the model history by a placeholder, so later
// turns never show it to a model. A classifier that fails yields level
// Unknown, which DT-001 decides on.
func (c GuardianVerify) Node() Func {
	inputs := EnforcementInputs(c.Mode)
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		mod, err := c.classify(ctx, s.UserMessage)
		if err != nil {
			mod = contracts.Moderation{Level: contracts.LevelUnknown, Categories: []string{}, Raw: "error: " + err.Error(),
				Reasons: []string{"classifier failed: " + err.Error()}}
			noteError(s, GuardianVerifyName, "safety classifier failed: "+err.Error())
		}
		s.Moderation = &mod
		if c.Policy != nil {
			p := c.Policy.Check(s.UserMessage, s.UserRole, "")
			s.Policy = &p
		}
		res, err := decide(s, c.Enforcement, inputs(s))
		if err != nil {
			return nil, err
		}
		if res.Get("decision") != "Block" {
			return s, nil
		}
		s.Action = contracts.ActionGuardianBlock
		if s.Policy != nil && s.Policy.Decision == contracts.PolicyDeny {
			refuseByPolicy(ctx, s)
		}
		lang := answerLanguage(s, c.Texts, c.Language)
		placeholder, err := text(c.Texts, lang, "blocked_message_placeholder", c.Product)
		if err != nil {
			return nil, err
		}
		replaceUserMessage(s, placeholder)
		return s, nil
	}
}

// classify asks the classifier, or with the guard off says it was not asked.
func (c GuardianVerify) classify(ctx context.Context, msg string) (contracts.Moderation, error) {
	if c.Disabled {
		return contracts.Moderation{Level: contracts.LevelNotAssessed, Categories: []string{},
			Reasons: []string{"guard disabled (guard.enabled: false)"}}, nil
	}
	return c.Classifier.Classify(ctx, msg)
}

// replaceUserMessage swaps this turn's user message, the last user message
// of the history, for text.
func replaceUserMessage(s *contracts.ChatState, text string) {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if m := s.Messages[i]; m.Role == "user" {
			c := *m
			c.Content = text
			s.Messages[i] = &c
			return
		}
	}
}
