package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkServeLoad is the load test in short: 64 clients at once post
// chat completions to the offline defaults over loopback. It reports turns
// per second and the 99th percentile latency; every answer must be a 200.
// Run it longer with -benchtime 60s.
func BenchmarkServeLoad(b *testing.B) {
	ts := httptest.NewServer(New(offline, Options{MaxTurnsPerKey: 64}))
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	body := chatBody("user", "How do I configure the safety guard?")
	var mu sync.Mutex
	var took []time.Duration
	b.SetParallelism(32) // 32 per core: 64 clients on two cores
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			res, err := client.Post(ts.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		took = append(took, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(len(took))/elapsed.Seconds(), "turns/s")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}
