package server

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

func TestTurnEventsStream(t *testing.T) {
	ts := serve(t, offline, Options{})
	res := post(t, ts.URL+"/v1/turns", "", `{"message":"How do I configure the safety guard?","stream":true}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	var names []string
	var result contracts.StructuredResult
	var tokens strings.Builder
	verdictAt, firstToken := -1, -1
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	name, done := "", false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case line == "data: [DONE]":
			done = true
		case strings.HasPrefix(line, "data: "):
			data := []byte(strings.TrimPrefix(line, "data: "))
			names = append(names, name)
			switch name {
			case "result":
				require.NoError(t, json.Unmarshal(data, &result))
			case string(contracts.EventVerdict):
				verdictAt = len(names) - 1
			case string(contracts.EventToken):
				var ev contracts.Event
				require.NoError(t, json.Unmarshal(data, &ev))
				tokens.WriteString(ev.Text)
				if firstToken < 0 {
					firstToken = len(names) - 1
				}
			}
		}
	}
	require.True(t, done, "the stream ends with [DONE]")
	assert.Equal(t, "node_start", names[0])
	assert.Contains(t, names, "node_end")
	assert.Contains(t, names, "tool_call")
	require.NotNil(t, result.Verdict)
	assert.Equal(t, contracts.VerdictPass, result.Verdict.Verdict)
	require.GreaterOrEqual(t, firstToken, 0, "the accepted answer streams")
	assert.Greater(t, firstToken, verdictAt, "no token before the Guardian's verdict")
	assert.True(t, strings.HasPrefix(result.Answer, tokens.String()), "the tokens are the answer's start")
	assert.Equal(t, "result", names[len(names)-1])
}
