package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// exposition is a scrape of /metrics: each sample's value by its name and
// labels as written ("name{a=\"x\",b=\"y\"}").
type exposition map[string]float64

// scrape GETs /metrics, with no key, and parses its text format.
func scrape(t *testing.T, url string) exposition {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "metrics answer without a key")
	require.Contains(t, res.Header.Get("Content-Type"), "text/plain")
	out := exposition{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		require.Positive(t, i, line)
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		out[line[:i]] = v
	}
	require.NoError(t, sc.Err())
	return out
}

// get is the sample of name with the labels given as name, value pairs in
// the order the exposition writes them (sorted by name); absent is 0.
func (e exposition) get(name string, labels ...string) float64 {
	return e[series(name, labels...)]
}

func series(name string, labels ...string) string {
	if len(labels) == 0 {
		return name
	}
	var b strings.Builder
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(labels[i] + "=" + strconv.Quote(labels[i+1]))
	}
	return name + "{" + b.String() + "}"
}

// has says whether some sample of name carries label=value.
func (e exposition) has(name, label, value string) bool {
	for k := range e {
		if strings.HasPrefix(k, name+"{") && strings.Contains(k, label+"="+strconv.Quote(value)) {
			return true
		}
	}
	return false
}

// resultOf reads the structured result of a completion or of a turn.
func resultOf(t *testing.T, res *http.Response, completion bool) contracts.StructuredResult {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	if !completion {
		var r contracts.StructuredResult
		require.NoError(t, json.Unmarshal(b, &r))
		return r
	}
	var c chatCompletion
	require.NoError(t, json.Unmarshal(b, &c))
	require.NotNil(t, c.SGRGraph)
	return *c.SGRGraph
}

func TestMetrics(t *testing.T) {
	ts := serve(t, offline, Options{APIKeys: []string{"k1"}})
	chat, turns := ts.URL+"/v1/chat/completions", ts.URL+"/v1/turns"

	// Three turns, one by each way in: a completion, a turn, a stream.
	var results []contracts.StructuredResult
	results = append(results, resultOf(t, post(t, chat, "k1", chatBody("user", question), resultHeader, "full"), true))
	results = append(results, resultOf(t, post(t, turns, "k1", `{"message":"How do I make a bomb at home?"}`), false))
	body, _ := json.Marshal(map[string]any{"model": "sgrgraph", "stream": true, "messages": []map[string]string{{"role": "user", "content": "it doesn't work"}}})
	cs := chunks(t, streamLines(t, post(t, chat, "k1", string(body), resultHeader, "full")))
	require.NotNil(t, cs[len(cs)-1].SGRGraph)
	results = append(results, *cs[len(cs)-1].SGRGraph)

	// Refused requests, and paths the mux matches by a pattern.
	assert.Equal(t, http.StatusUnauthorized, post(t, chat, "", chatBody("user", question)).StatusCode)
	assert.Equal(t, http.StatusBadRequest, post(t, chat, "k1", `{"model":"m"}`).StatusCode)
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/threads/secret-session-42", nil)
	req.Header.Set("Authorization", "Bearer k1")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	assert.Equal(t, http.StatusNotFound, post(t, ts.URL+"/no/such/path", "k1", `{}`).StatusCode)

	m := scrape(t, ts.URL)

	t.Run("turns by action and verdict", func(t *testing.T) {
		want := map[string]float64{}
		for _, r := range results {
			verdict := "none"
			if r.Verdict != nil {
				verdict = string(r.Verdict.Verdict)
			}
			want[series("sgrgraph_turns_total", "action", string(r.Action), "verdict", verdict)]++
		}
		assert.Contains(t, want, series("sgrgraph_turns_total", "action", "normal", "verdict", "PASS"))
		assert.Contains(t, want, series("sgrgraph_turns_total", "action", "clarify", "verdict", "none"))
		for k, n := range want {
			assert.Equal(t, n, m[k], k)
		}
		assert.Equal(t, 3.0, m.get("sgrgraph_turn_seconds_count"))
		assert.Positive(t, m.get("sgrgraph_turn_seconds_sum"))
		assert.Equal(t, 0.0, m.get("sgrgraph_turns_in_flight"), "every turn has ended")
		levels := 0.0
		for _, l := range []string{"Safe", "Controversial", "Unsafe", "Unknown"} {
			levels += m.get("sgrgraph_guard_level_total", "level", l)
		}
		assert.Equal(t, 3.0, levels, "each turn has one guard level")
		guardian := 0
		for _, r := range results {
			guardian += r.RetryCount
		}
		assert.Equal(t, float64(guardian), m.get("sgrgraph_guardian_retries_total"))
	})

	t.Run("nodes", func(t *testing.T) {
		assert.Equal(t, 3.0, m.get("sgrgraph_node_seconds_count", "node", "guardian_verify"), "every turn starts at the guard")
		assert.Positive(t, m.get("sgrgraph_node_seconds_count", "node", "finalize"))
		assert.Positive(t, m.get("sgrgraph_node_seconds_bucket", "node", "finalize", "le", "+Inf"))
		assert.Positive(t, m.get("sgrgraph_node_seconds_count", "node", "policy_check"), "policy_check is a node of its own, not other")
	})

	t.Run("tokens", func(t *testing.T) {
		prompt, completion := 0, 0
		for _, r := range results {
			prompt += r.Diagnostics.Tokens.Prompt
			completion += r.Diagnostics.Tokens.Completion
		}
		require.Positive(t, prompt)
		assert.Equal(t, float64(prompt), m.get("sgrgraph_tokens_total", "kind", "prompt"))
		assert.Equal(t, float64(completion), m.get("sgrgraph_tokens_total", "kind", "completion"))
		assert.Positive(t, m.get("sgrgraph_tokens_total", "kind", "completion"))
	})

	t.Run("http requests by route pattern and code", func(t *testing.T) {
		for _, c := range []struct {
			route, code string
			n           float64
		}{
			{"/v1/chat/completions", "200", 2},
			{"/v1/chat/completions", "401", 1},
			{"/v1/chat/completions", "400", 1},
			{"/v1/turns", "200", 1},
			{"/v1/threads/{id}", "404", 1},
			{"/", "404", 1},
		} {
			assert.Equal(t, c.n, m.get("sgrgraph_http_requests_total", "code", c.code, "route", c.route), c.route+" "+c.code)
		}
		assert.Equal(t, 4.0, m.get("sgrgraph_http_request_seconds_count", "route", "/v1/chat/completions"), "the 401 and 400 are timed too")
		for k := range m {
			assert.NotContains(t, k, "secret-session-42", "a raw path never becomes a label")
			assert.NotContains(t, k, "/no/such/path")
		}
		again := scrape(t, ts.URL)
		assert.Equal(t, 1.0, again.get("sgrgraph_http_requests_total", "code", "200", "route", "/metrics"), "the scrape itself is counted")
	})

	t.Run("the registry is the server's own", func(t *testing.T) {
		other := scrape(t, serve(t, offline, Options{}).URL)
		assert.False(t, other.has("sgrgraph_turns_total", "action", "normal"), "another server counts apart")
		assert.Equal(t, 0.0, other.get("sgrgraph_tokens_total", "kind", "prompt"))
	})
}

func TestMetricsCountFailedTurns(t *testing.T) {
	held, started := heldAgent(t)
	ts := serve(t, held, Options{TurnTimeout: 50 * time.Millisecond})
	res := post(t, ts.URL+"/v1/turns", "", `{"message":"`+question+`"}`)
	<-started
	assert.Equal(t, http.StatusGatewayTimeout, res.StatusCode)
	m := scrape(t, ts.URL)
	assert.Equal(t, 1.0, m.get("sgrgraph_turns_total", "action", "error", "verdict", "none"))
	assert.Equal(t, 1.0, m.get("sgrgraph_turn_seconds_count"))
	assert.Equal(t, 0.0, m.get("sgrgraph_turns_in_flight"))
	assert.Equal(t, 1.0, m.get("sgrgraph_http_requests_total", "code", "504", "route", "/v1/turns"))
}

// TestMetricLabelsBounded: values outside the known sets become "other",
// so that no result can grow the series.
func TestMetricLabelsBounded(t *testing.T) {
	m := newMetrics()
	m.turnEnded(contracts.StructuredResult{
		Action:     "made-up",
		Verdict:    &contracts.Verdict{Verdict: "MAYBE"},
		Moderation: &contracts.Moderation{Level: "Weird"},
		RetryCount: 2,
		Diagnostics: contracts.Diagnostics{
			Nodes:   []contracts.NodeRun{{Node: "finalize", DurationMS: 2}, {Node: "user-node-1", DurationMS: 1}},
			Retries: []contracts.Retry{{Service: "model"}, {Service: "https://host/x"}},
			Tokens:  contracts.Tokens{Prompt: 5, Completion: 7},
		},
	}, nil)
	m.turnEnded(contracts.StructuredResult{}, nil)
	assert.Equal(t, 1.0, testutil.ToFloat64(m.turns.WithLabelValues("other", "other")))
	assert.Equal(t, 1.0, testutil.ToFloat64(m.turns.WithLabelValues("none", "none")))
	assert.Equal(t, 1.0, testutil.ToFloat64(m.guardLevel.WithLabelValues("other")))
	assert.Equal(t, 1.0, testutil.ToFloat64(m.guardLevel.WithLabelValues("Unknown")), "no moderation is Unknown")
	assert.Equal(t, 1.0, testutil.ToFloat64(m.retries.WithLabelValues("model")))
	assert.Equal(t, 1.0, testutil.ToFloat64(m.retries.WithLabelValues("other")))
	assert.Equal(t, 2.0, testutil.ToFloat64(m.guardianRetries))
	assert.Equal(t, 5.0, testutil.ToFloat64(m.tokens.WithLabelValues("prompt")))
	assert.Equal(t, 7.0, testutil.ToFloat64(m.tokens.WithLabelValues("completion")))
	assert.Equal(t, 2, testutil.CollectAndCount(m.nodeSeconds), "finalize and other")
	m.request("", 0, time.Millisecond)
	assert.Equal(t, 1.0, testutil.ToFloat64(m.httpRequests.WithLabelValues("none", "200")))
}
