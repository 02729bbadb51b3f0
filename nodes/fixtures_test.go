package nodes

import (
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/decisions"
	"github.com/sgrgraph/sgrgraph/tables"
	"github.com/sgrgraph/sgrgraph/templates"
)

// fixtures are the standard tables and texts the node tests share.
type fixtures struct {
	texts  *templates.Set
	tables map[string]*tables.Table
}

func newFixtures(t *testing.T) fixtures {
	t.Helper()
	texts, err := templates.Default()
	require.NoError(t, err)
	set, err := decisions.Standard(decisions.DefaultConfig())
	require.NoError(t, err)
	f := fixtures{texts: texts, tables: map[string]*tables.Table{}}
	for _, id := range []string{"DT-001", "DT-002", "DT-003", "DT-004", "DT-005", "DT-006"} {
		tb, err := set.Get(id)
		require.NoError(t, err)
		f.tables[id] = tb
	}
	return f
}

// newState is a fresh turn for message.
func newState(message string) *contracts.ChatState {
	return &contracts.ChatState{SessionID: "test", Turn: 1, UserMessage: message,
		Messages: []*schema.Message{schema.UserMessage(message)}}
}

// validPlan is a plan that passes validation.
func validPlan() contracts.SGRPlan {
	return contracts.SGRPlan{SpamScore: 0.1, SpamReason: "on topic", UserIntent: "configure the guard", Topic: "guard",
		Category: "configuration", RequestType: contracts.RequestHowtoPolicy, AnswerLanguage: "en",
		Subqueries: []string{"guard mode"}, IntentConfidence: 0.9, Action: contracts.ActionNormal}
}

func planArgs(t *testing.T, p contracts.SGRPlan) string {
	t.Helper()
	b, err := json.Marshal(p)
	require.NoError(t, err)
	return string(b)
}
