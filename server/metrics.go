package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// metrics are the server's Prometheus metrics, in a registry of the
// server's own: two servers in one process (the tests) count apart, and
// nothing is registered globally.
//
// Every label value comes from a closed set (the known actions, verdicts,
// levels, node names, services, mux patterns and status codes); anything
// else is counted as "other", so that no input can grow the series.
type metrics struct {
	reg             *prometheus.Registry
	turns           *prometheus.CounterVec
	turnSeconds     prometheus.Histogram
	nodeSeconds     *prometheus.HistogramVec
	guardLevel      *prometheus.CounterVec
	retries         *prometheus.CounterVec
	guardianRetries prometheus.Counter
	tokens          *prometheus.CounterVec
	httpRequests    *prometheus.CounterVec
	httpSeconds     *prometheus.HistogramVec
	inFlight        prometheus.Gauge
	runsQueued      prometheus.Counter
}

// Label values outside the known sets.
const (
	labelOther = "other"
	labelNone  = "none"
	// actionError is the action of a turn that ended in an error (timeout,
	// client gone, model server down): it has no result to read one from.
	actionError = "error"
)

var (
	knownActions = set(string(contracts.ActionNormal), string(contracts.ActionClarify), string(contracts.ActionBlock),
		string(contracts.ActionGuardianBlock))
	knownVerdicts = set(string(contracts.VerdictPass), string(contracts.VerdictRetry), string(contracts.VerdictFail))
	knownLevels   = set(string(contracts.LevelSafe), string(contracts.LevelControversial), string(contracts.LevelUnsafe),
		string(contracts.LevelUnknown))
	knownNodes = set(agent.NodeNames()...)
	// knownServices are the outbound services that retry (outbound.Client's names).
	knownServices = set("model", "guard")
)

func set(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// bounded is v when it is in known, "other" otherwise; empty is empty.
func bounded(v string, known map[string]bool, empty string) string {
	switch {
	case v == "":
		return empty
	case known[v]:
		return v
	}
	return labelOther
}

// Buckets, in seconds: a turn takes from milliseconds (a refusal) to
// minutes (a slow model and Guardian retries); a node from microseconds.
var (
	turnBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300}
	nodeBuckets = []float64{0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
	httpBuckets = []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}
)

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sgrgraph_turns_total",
			Help: "Turns run, by the action taken and the Guardian's last verdict (none: no verdict; action error: the turn failed)."},
			[]string{"action", "verdict"}),
		turnSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sgrgraph_turn_seconds",
			Help: "Latency of whole turns, failed ones included.", Buckets: turnBuckets}),
		nodeSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sgrgraph_node_seconds",
			Help: "Latency of each node run of a turn (its diagnostics' duration_ms).", Buckets: nodeBuckets}, []string{"node"}),
		guardLevel: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sgrgraph_guard_level_total",
			Help: "Turns by the safety classifier's level of the message (Unknown: not classified)."}, []string{"level"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sgrgraph_retries_total",
			Help: "Failed tries of calls to other services (model, guard, ...) during turns."}, []string{"service"}),
		guardianRetries: prometheus.NewCounter(prometheus.CounterOpts{Name: "sgrgraph_guardian_retries_total",
			Help: "Drafts the Guardian sent back for another attempt (the turns' retry_count)."}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sgrgraph_tokens_total",
			Help: "Model tokens used by turns, by kind (prompt, completion)."}, []string{"kind"}),
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sgrgraph_http_requests_total",
			Help: "HTTP requests answered, by route (the mux pattern, not the path) and status code."}, []string{"route", "code"}),
		httpSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sgrgraph_http_request_seconds",
			Help: "Latency of HTTP requests by route (a stream counts until its end).", Buckets: httpBuckets}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sgrgraph_turns_in_flight",
			Help: "Turns running now."}),
		runsQueued: prometheus.NewCounter(prometheus.CounterOpts{Name: "sgrgraph_runs_queued_total",
			Help: "Turns queued for workers (POST /v1/runs); the workers' own logs show how they ran."}),
	}
	m.reg.MustRegister(m.turns, m.turnSeconds, m.nodeSeconds, m.guardLevel, m.retries, m.guardianRetries, m.tokens,
		m.httpRequests, m.httpSeconds, m.inFlight, m.runsQueued,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// The counters a rate is taken of show from the start, at 0.
	m.tokens.WithLabelValues("prompt")
	m.tokens.WithLabelValues("completion")
	for service := range knownServices {
		m.retries.WithLabelValues(service)
	}
	return m
}

// handler serves the registry in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// turnStarted counts a turn in flight; the function it returns ends it
// with its result and records what the turn reports. Call it once; a
// second call does nothing.
func (m *metrics) turnStarted() func(contracts.StructuredResult, error) {
	start := time.Now()
	m.inFlight.Inc()
	var once sync.Once
	return func(res contracts.StructuredResult, err error) {
		once.Do(func() {
			m.inFlight.Dec()
			m.turnSeconds.Observe(time.Since(start).Seconds())
			m.turnEnded(res, err)
		})
	}
}

// turnEnded records one finished turn: the one place every turn's result
// passes, whichever route ran it.
func (m *metrics) turnEnded(res contracts.StructuredResult, err error) {
	if err != nil {
		m.turns.WithLabelValues(actionError, labelNone).Inc()
		return
	}
	verdict := ""
	if res.Verdict != nil {
		verdict = string(res.Verdict.Verdict)
	}
	m.turns.WithLabelValues(bounded(string(res.Action), knownActions, labelNone), bounded(verdict, knownVerdicts, labelNone)).Inc()
	level := contracts.LevelUnknown
	if res.Moderation != nil && res.Moderation.Level != "" {
		level = res.Moderation.Level
	}
	m.guardLevel.WithLabelValues(bounded(string(level), knownLevels, string(contracts.LevelUnknown))).Inc()
	d := res.Diagnostics
	for _, n := range d.Nodes {
		m.nodeSeconds.WithLabelValues(bounded(n.Node, knownNodes, labelOther)).Observe(n.DurationMS / 1000)
	}
	for _, r := range d.Retries {
		m.retries.WithLabelValues(bounded(r.Service, knownServices, labelOther)).Inc()
	}
	if res.RetryCount > 0 {
		m.guardianRetries.Add(float64(res.RetryCount))
	}
	if d.Tokens.Prompt > 0 {
		m.tokens.WithLabelValues("prompt").Add(float64(d.Tokens.Prompt))
	}
	if d.Tokens.Completion > 0 {
		m.tokens.WithLabelValues("completion").Add(float64(d.Tokens.Completion))
	}
}

// request records one answered HTTP request. route is the mux pattern
// that took it ("" when none did: a redirect), never the raw path.
func (m *metrics) request(route string, status int, took time.Duration) {
	if route == "" {
		route = labelNone
	}
	if status == 0 { // the handler wrote nothing: net/http sends 200
		status = http.StatusOK
	}
	code := labelOther
	if status >= 100 && status <= 599 {
		code = strconv.Itoa(status)
	}
	m.httpRequests.WithLabelValues(route, code).Inc()
	m.httpSeconds.WithLabelValues(route).Observe(took.Seconds())
}
