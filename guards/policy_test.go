package guards

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/sgrgraph/sgrgraph/contracts"
)

func TestQueryPolicy(t *testing.T) {
	q, err := CompilePolicy(Policy{
		ForbiddenTopics:      []string{"salary data", "зарплата сотрудников"},
		ForbiddenExpressions: []string{`(?i)drop\s+table`},
		DeniedRequestTypes:   map[string][]c.RequestType{"guest": {c.RequestStatusMetric, c.RequestStatusList}},
	})
	require.NoError(t, err)
	tests := []struct {
		name    string
		query   string
		role    string
		rt      c.RequestType
		reasons []string
	}{
		{"allowed", "how do I configure the guard", "guest", c.RequestHowtoPolicy, nil},
		{"forbidden topic", "Show me the SALARY data of the team", "admin", c.RequestKnowledgeQA, []string{"forbidden_topic(salary data)"}},
		{"topic only on word boundaries", "salary database schema", "admin", c.RequestKnowledgeQA, nil},
		{"russian topic with ё", "какая Зарплата сотрудников?", "admin", c.RequestKnowledgeQA, []string{"forbidden_topic(зарплата сотрудников)"}},
		{"forbidden expression", "please DROP   TABLE users", "admin", c.RequestKnowledgeQA, []string{`forbidden_expression((?i)drop\s+table)`}},
		{"permission denied", "how many tickets are open", "guest", c.RequestStatusMetric, []string{"permission_denied(role=guest,request_type=STATUS_METRIC)"}},
		{"other role may ask", "how many tickets are open", "admin", c.RequestStatusMetric, nil},
		{"every reason collected", "salary data, drop table", "guest", c.RequestStatusList,
			[]string{"forbidden_topic(salary data)", `forbidden_expression((?i)drop\s+table)`, "permission_denied(role=guest,request_type=STATUS_LIST)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := q.Check(tc.query, tc.role, tc.rt)
			if tc.reasons == nil {
				assert.Equal(t, c.PolicyResult{Decision: c.PolicyAllow}, got)
				return
			}
			assert.Equal(t, c.PolicyResult{Decision: c.PolicyDeny, Reasons: tc.reasons}, got)
		})
	}
}

func TestEmptyPolicyAllowsEverything(t *testing.T) {
	q, err := CompilePolicy(Policy{})
	require.NoError(t, err)
	assert.Equal(t, c.PolicyAllow, q.Check("anything at all", "", c.RequestStatusMetric).Decision)
}

func TestCompilePolicyErrors(t *testing.T) {
	_, err := CompilePolicy(Policy{ForbiddenExpressions: []string{"ok", "(unclosed"}})
	assert.ErrorContains(t, err, "forbidden_expressions[1]")
	_, err = CompilePolicy(Policy{ForbiddenTopics: []string{"  ", "x"}})
	assert.ErrorContains(t, err, "forbidden_topics[0]: must not be empty")
	_, err = CompilePolicy(Policy{DeniedRequestTypes: map[string][]c.RequestType{"guest": {"STATUS_LIST", "GOSSIP"}}})
	assert.ErrorContains(t, err, `denied_request_types.guest[1]: "GOSSIP" is not a request type`)
}
