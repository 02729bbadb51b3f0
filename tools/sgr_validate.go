package tools

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/sgrgraph/sgrgraph/contracts"
)

var languagePattern = regexp.MustCompile(`^[a-z]{2}$`)

func knownRequestType(t contracts.RequestType) bool {
	switch t {
	case contracts.RequestStatusMetric, contracts.RequestStatusSummary, contracts.RequestStatusList,
		contracts.RequestHowtoPolicy, contracts.RequestDesignArch, contracts.RequestDataDefinition,
		contracts.RequestTroubleshoot, contracts.RequestKnowledgeQA, contracts.RequestCasual:
		return true
	}
	return false
}

// ValidatePlan checks what a decoded plan must satisfy before the turn may
// rely on it. The error joins one line per problem, each naming the field,
// so that a repair call can show the model exactly what to fix.
func ValidatePlan(p contracts.SGRPlan) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch p.Action {
	case contracts.ActionNormal, contracts.ActionClarify, contracts.ActionBlock, contracts.ActionGuardianBlock:
	default:
		bad("action: %q is not one of normal, clarify, block, guardian_block", p.Action)
	}
	if p.UserIntent == "" {
		bad("user_intent: must not be empty")
	}
	if p.Action == contracts.ActionNormal && len(p.Subqueries) == 0 && p.RequestType != contracts.RequestCasual {
		bad("subqueries: action normal needs at least 1 search query (up to 10)")
	}
	if p.Action == contracts.ActionClarify && p.ClarificationQuestion == "" && len(p.Uncertainties) == 0 {
		bad("clarification_question: action clarify needs a question (max 300 characters)")
	}
	if p.RequestType != "" && !knownRequestType(p.RequestType) {
		bad("request_type: %q is not a known request type", p.RequestType)
	}
	if p.AnswerLanguage != "" && !languagePattern.MatchString(p.AnswerLanguage) {
		bad("answer_language: %q is not a two-letter language code", p.AnswerLanguage)
	}
	return errors.Join(errs...)
}
