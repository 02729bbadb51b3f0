package guards

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Policy is the query policy (L0) as configured: topics and expressions that
// may not be asked about, and request types a role may not ask.
type Policy struct {
	// ForbiddenTopics are phrases matched case-insensitively on word boundaries.
	ForbiddenTopics []string `yaml:"forbidden_topics" json:"forbidden_topics"`
	// ForbiddenExpressions are regular expressions (RE2 syntax).
	ForbiddenExpressions []string `yaml:"forbidden_expressions" json:"forbidden_expressions"`
	// DeniedRequestTypes maps a role to the request types it may not ask.
	DeniedRequestTypes map[string][]contracts.RequestType `yaml:"denied_request_types" json:"denied_request_types"`
}

// QueryPolicy is a compiled Policy, safe for concurrent use.
type QueryPolicy struct {
	topics      []string
	expressions []*regexp.Regexp
	denied      map[string][]contracts.RequestType
}

// CompilePolicy checks and compiles a policy; a bad expression is an error
// naming its index.
func CompilePolicy(p Policy) (*QueryPolicy, error) {
	q := &QueryPolicy{denied: p.DeniedRequestTypes}
	for role, types := range p.DeniedRequestTypes {
		for i, rt := range types {
			if !knownRequestType(rt) {
				return nil, fmt.Errorf("denied_request_types.%s[%d]: %q is not a request type", role, i, rt)
			}
		}
	}
	for i, t := range p.ForbiddenTopics {
		t = normalizeWords(t)
		if t == "" {
			return nil, fmt.Errorf("forbidden_topics[%d]: must not be empty", i)
		}
		q.topics = append(q.topics, t)
	}
	for i, e := range p.ForbiddenExpressions {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("forbidden_expressions[%d]: %w", i, err)
		}
		q.expressions = append(q.expressions, re)
	}
	return q, nil
}

// Check returns DENY with every reason that applies, else ALLOW.
func (q *QueryPolicy) Check(query, role string, rt contracts.RequestType) contracts.PolicyResult {
	var reasons []string
	words := " " + normalizeWords(query) + " "
	for _, t := range q.topics {
		if strings.Contains(words, " "+t+" ") {
			reasons = append(reasons, fmt.Sprintf("forbidden_topic(%s)", t))
		}
	}
	for _, re := range q.expressions {
		if re.MatchString(query) {
			reasons = append(reasons, fmt.Sprintf("forbidden_expression(%s)", re))
		}
	}
	if rt != "" && slices.Contains(q.denied[role], rt) {
		reasons = append(reasons, fmt.Sprintf("permission_denied(role=%s,request_type=%s)", role, rt))
	}
	if len(reasons) > 0 {
		return contracts.PolicyResult{Decision: contracts.PolicyDeny, Reasons: reasons}
	}
	return contracts.PolicyResult{Decision: contracts.PolicyAllow}
}

func knownRequestType(rt contracts.RequestType) bool {
	switch rt {
	case contracts.RequestStatusMetric, contracts.RequestStatusSummary, contracts.RequestStatusList,
		contracts.RequestHowtoPolicy, contracts.RequestDesignArch, contracts.RequestDataDefinition,
		contracts.RequestTroubleshoot, contracts.RequestKnowledgeQA, contracts.RequestCasual:
		return true
	}
	return false
}

// normalizeWords lower-cases text, folds ё to е and turns every run of
// non-letters into one space, so phrases match on word boundaries.
func normalizeWords(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "ё", "е")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}
