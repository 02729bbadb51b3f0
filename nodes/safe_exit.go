package nodes

import (
	"context"

	"github.com/cloudwego/eino/schema"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/templates"
)

// SafeExit configures the turn's safe end.
type SafeExit struct {
	Texts    *templates.Set
	Product  string
	Language string // the fallback answer language
}

// Node ends a turn that must not answer (seed 004 §7): the Guardian at the
// door blocked the message, or the Guardian as judge failed the answer. It
// gives the safety refusal, the policy refusal, or one minimal question
// when the evidence was short, or a refusal; never the rejected draft.
func (c SafeExit) Node() Func {
	return func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		lang := answerLanguage(s, c.Texts, c.Language)
		s.Language = lang
		var answer string
		kind := contracts.UIRefusal
		switch {
		case s.Action == contracts.ActionGuardianBlock && s.Moderation != nil && s.Moderation.Level == contracts.LevelUnknown:
			// The classifier failed or said nothing usable: the request was
			// not found harmful, it could not be checked, and the user is told so.
			r, err := text(c.Texts, lang, "guard_unavailable", c.Product)
			if err != nil {
				return nil, err
			}
			answer = r
		case s.Action == contracts.ActionGuardianBlock:
			r, err := c.Texts.Render(contracts.ActionGuardianBlock, lang, templates.Data{Moderation: s.Moderation, Product: c.Product})
			if err != nil {
				return nil, err
			}
			answer = r.UserResponse
		case s.Policy != nil && s.Policy.Decision == contracts.PolicyDeny:
			r, err := text(c.Texts, lang, "policy_refusal", c.Product)
			if err != nil {
				return nil, err
			}
			answer = r
		case s.Verdict != nil && len(s.Verdict.RequiredActions) > 0 && s.Verdict.RequiredActions[0] == contracts.ActAskMinimalQuestion:
			q, err := text(c.Texts, lang, "safe_exit_question", c.Product)
			if err != nil {
				return nil, err
			}
			answer, kind = q, contracts.UIClarification
		default:
			r, err := text(c.Texts, lang, "safe_exit_refusal", c.Product)
			if err != nil {
				return nil, err
			}
			answer = r
		}
		s.Answer = answer
		s.Messages = append(s.Messages, schema.AssistantMessage(answer, nil))
		addUI(ctx, s, kind, answer)
		return s, nil
	}
}
