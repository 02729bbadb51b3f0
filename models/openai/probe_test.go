package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

func TestProbe(t *testing.T) {
	refuseNamed := openaitest.WithFaults(func(r openaitest.Request) openaitest.Fault {
		if strings.HasPrefix(r.ToolChoice, "function:") {
			return openaitest.Fault{Status: 404}
		}
		return openaitest.Fault{}
	})
	tests := []struct {
		name   string
		opts   []openaitest.Option
		cfg    Config
		failed string // the check that fails, "" when all pass
		fix    string
	}{
		{"all well", nil, Config{Model: "m", APIKey: "k"}, "", ""},
		{"a model the server does not serve", nil, Config{Model: "gpt-x", APIKey: "k"}, "model", "set model.name (--model) to one of them"},
		{"a server that refuses named tool choice", []openaitest.Option{refuseNamed}, Config{Model: "m", APIKey: "k"},
			"forced tool choice", "set model.forced_tool_choice: required"},
		{"configured for what the server takes", []openaitest.Option{refuseNamed}, Config{Model: "m", APIKey: "k", ForcedToolChoice: ForcedRequired}, "", ""},
		{"a wrong key", nil, Config{Model: "m", APIKey: "wrong"}, "reachable", "set OPENAI_API_KEY or model.api_key"},
		{"a weaker choice that works is fine", nil, Config{Model: "m", APIKey: "k", ForcedToolChoice: ForcedNone}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]openaitest.Option{openaitest.WithAPIKey("k")}, tc.opts...)
			srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat(), opts...)
			defer srv.Close()
			tc.cfg.BaseURL = srv.URL
			checks := Probe(context.Background(), tc.cfg)
			var failed []Check
			for _, c := range checks {
				if !c.OK {
					failed = append(failed, c)
				}
			}
			if tc.failed == "" {
				assert.Empty(t, failed)
				return
			}
			if assert.Len(t, failed, 1) {
				assert.Equal(t, tc.failed, failed[0].Name)
				assert.Contains(t, failed[0].Fix, tc.fix)
			}
		})
	}
	talker := openaitest.New(sgrtest.NewScriptedModel(sgrtest.Text("pong")).Repeat(), openaitest.WithAPIKey("k"))
	defer talker.Close()
	checks := Probe(context.Background(), Config{BaseURL: talker.URL, Model: "m", APIKey: "k"})
	last := checks[len(checks)-1]
	assert.False(t, last.OK, "a server that never calls the tool cannot plan")
	assert.Contains(t, last.Detail, "accepted, but no tool was called")
	assert.Contains(t, last.Fix, "serve a model with tool calling")

	unreachable := Probe(context.Background(), Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	assert.False(t, unreachable[0].OK)
	assert.Contains(t, unreachable[0].Fix, "start the server")
}
