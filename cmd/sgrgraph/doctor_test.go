package main

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
	"github.com/sgrgraph/sgrgraph/sgrtest/openaitest"
)

func TestDoctorRetriesATransientFailure(t *testing.T) {
	var chats atomic.Int32
	srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat(),
		openaitest.WithFaults(func(openaitest.Request) openaitest.Fault {
			if chats.Add(1) == 1 {
				return openaitest.Fault{Status: 500}
			}
			return openaitest.Fault{}
		}))
	defer srv.Close()
	out, _, err := run(t, "doctor", "--provider", "openai", "--base-url", srv.URL, "--model", "m")
	require.NoError(t, err, out)
	assert.Contains(t, out, "ok    model m: forced tool choice: the server takes tool_choice named and calls the tool [try 1: 500")
	assert.NotContains(t, out, "forced_tool_choice", "one 500 changes no advice")
	assert.Len(t, srv.Requests(), 2)
}

func TestDoctorGivesNoAdviceFromAFailingServer(t *testing.T) {
	srv := openaitest.New(sgrtest.NewScriptedModel(sgrtest.ToolCall("ping", "{}")).Repeat(),
		openaitest.WithFaults(func(openaitest.Request) openaitest.Fault { return openaitest.Fault{Status: 503} }))
	defer srv.Close()
	out, _, err := run(t, "doctor", "--provider", "openai", "--base-url", srv.URL, "--model", "m")
	require.Error(t, err)
	assert.Contains(t, out, "FAIL  model m: forced tool choice: tool_choice named: 503")
	assert.Contains(t, out, "-> the server is failing, not refusing")
	assert.NotContains(t, out, "set model.forced_tool_choice")
}
