package openai

import (
	"context"
	"strings"
	"sync/atomic"
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

// A failure that a retry mends says nothing of what the server takes; only
// a definite refusal moves the probe to another tool choice.
func TestProbeRetriesTransientFailures(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(n int) openaitest.Fault // by chat request, from 1
		ok       bool
		detail   string
		fix      string
		requests int
	}{
		{"one 500 is retried and the configured choice holds", func(n int) openaitest.Fault {
			return openaitest.Fault{Status: 500 * boolInt(n == 1)}
		}, true, "try 1: 500 Internal Server Error", "", 2},
		{"a 503 on every try gives no advice", func(int) openaitest.Fault { return openaitest.Fault{Status: 503} },
			false, "whether the server takes it is unknown", "the server is failing, not refusing", fast.Attempts},
		{"a 429 on every try gives no advice", func(int) openaitest.Fault { return openaitest.Fault{Status: 429, RetryAfter: "0"} },
			false, "tool_choice named: 429", "the server is failing, not refusing", fast.Attempts},
		{"a connection reset once is retried", func(n int) openaitest.Fault { return openaitest.Fault{Reset: n == 1} },
			true, "connection reset by peer", "", 2},
		{"a refusal still moves on", func(n int) openaitest.Fault { return openaitest.Fault{Status: 404 * boolInt(n == 1)} },
			false, "named: 404", "set model.forced_tool_choice: required", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int32
			srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat(),
				openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return tc.fault(int(n.Add(1))) }))
			defer srv.Close()
			checks := Probe(context.Background(), Config{BaseURL: srv.URL, Model: "m", Retry: fast})
			last := checks[len(checks)-1]
			assert.Equal(t, "forced tool choice", last.Name)
			assert.Equal(t, tc.ok, last.OK, last.Detail)
			assert.Contains(t, last.Detail, tc.detail)
			if tc.fix == "" {
				assert.Empty(t, last.Fix)
			} else {
				assert.Contains(t, last.Fix, tc.fix)
			}
			if !tc.ok && tc.fix != "set model.forced_tool_choice: required" {
				assert.NotContains(t, last.Fix, "forced_tool_choice", "no advice from a failing server")
			}
			assert.Len(t, srv.Requests(), tc.requests)
		})
	}
}
