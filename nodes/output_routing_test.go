package nodes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/tables"
)

// editedDT004 is the standard DT-004 with the outputs of one channel's row
// replaced, as an analyst would edit it.
func editedDT004(t *testing.T, f fixtures, channel string, outputs ...string) *tables.Table {
	t.Helper()
	def := *f.tables["DT-004"]
	def.Rules = slices.Clone(def.Rules)
	for i, r := range def.Rules {
		if r.Inputs[0] == `"`+channel+`"` {
			def.Rules[i].Outputs = outputs
		}
	}
	tb, err := tables.New(def)
	require.NoError(t, err)
	return tb
}

func TestOutputRoutingDrivesTheChannels(t *testing.T) {
	f := newFixtures(t)
	tests := []struct {
		name    string
		outputs *tables.Table
		context func(t *testing.T, added []*schema.Message)
		ui      []contracts.UIType
		meta    Channel
	}{
		{"the seed's table: both sections to the model, the response to the person, everything to the result", f.tables["DT-004"],
			func(t *testing.T, added []*schema.Message) {
				require.Len(t, added, 1)
				assert.True(t, strings.HasPrefix(added[0].Content, "## Analysis\n"))
				assert.Contains(t, added[0].Content, "\n\n## Response\n")
			},
			[]contracts.UIType{contracts.UIIntent, contracts.UIResponse}, Channel{true, true, true, true}},
		{"context row: the response section only", editedDT004(t, f, "context", "false", "true", "false", "false"),
			func(t *testing.T, added []*schema.Message) {
				require.Len(t, added, 1)
				assert.True(t, strings.HasPrefix(added[0].Content, "## Response\n"))
				assert.NotContains(t, added[0].Content, "## Analysis")
			},
			[]contracts.UIType{contracts.UIIntent, contracts.UIResponse}, Channel{true, true, true, true}},
		{"context row: the tool trace with its JSON", editedDT004(t, f, "context", "false", "false", "true", "true"),
			func(t *testing.T, added []*schema.Message) {
				require.Len(t, added, 2)
				assert.Equal(t, "analyse_user_request", added[0].ToolCalls[0].Function.Name)
				assert.Contains(t, added[1].Content, `"spam_score":0.1`)
			},
			[]contracts.UIType{contracts.UIIntent, contracts.UIResponse}, Channel{true, true, true, true}},
		{"ui row: the analysis and the plan shown too", editedDT004(t, f, "ui", "true", "true", "false", "true"),
			func(t *testing.T, added []*schema.Message) { require.Len(t, added, 1) },
			[]contracts.UIType{contracts.UIAnalysis, contracts.UIPlan, contracts.UIIntent, contracts.UIResponse}, Channel{true, true, true, true}},
		{"metadata row: no plan in the result", editedDT004(t, f, "metadata", "true", "true", "false", "false"),
			func(t *testing.T, added []*schema.Message) { require.Len(t, added, 1) },
			[]contracts.UIType{contracts.UIIntent, contracts.UIResponse}, Channel{true, true, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := InjectSynthetic{Routing: f.tables["DT-002"], Outputs: tc.outputs, Texts: f.texts, Product: "sgrgraph", Language: "en"}.Node()
			in := newState("How do I set the guard mode?")
			in.Plan = ptr(validPlan())
			s, _, err := sgrtest.RunNode(context.Background(), InjectSyntheticName, node, in)
			require.NoError(t, err)
			tc.context(t, s.Messages[1:])
			var types []contracts.UIType
			for _, u := range s.UI {
				types = append(types, u.Type)
			}
			assert.Equal(t, tc.ui, types)
			var routed []any
			for _, d := range s.Made {
				if d.Table == "DT-004" {
					routed = append(routed, d.Inputs["output_channel"])
				}
			}
			assert.Equal(t, []any{"context", "ui", "metadata"}, routed, "DT-004 decides once per channel")
			assert.Equal(t, tc.meta, MetadataChannel(s, tc.outputs))
		})
	}
}

func TestMetadataChannelBeforeRouting(t *testing.T) {
	f := newFixtures(t)
	assert.Equal(t, Channel{true, true, true, true}, MetadataChannel(newState("hi"), f.tables["DT-004"]),
		"a turn blocked at the door keeps all it has")
}
