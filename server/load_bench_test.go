package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// BenchmarkServeLoad is the load test: 64 clients at once post chat
// completions to the offline defaults over loopback, each waiting for its
// answer before it sends again. It reports turns per second, the median,
// 90th and 99th percentile latencies and the slowest, and the live heap (after a GC) once a tenth of the
// turns have run and again at the end, which stay level when nothing
// accumulates; every answer must be a 200, and no goroutine may outlive
// the server. CI runs it once; the figures come from
//
//	go test -run '^$' -bench ServeLoad -benchtime 100000x ./server
func BenchmarkServeLoad(b *testing.B) {
	before := goleak.IgnoreCurrent()
	ts := httptest.NewServer(New(offline, Options{MaxTurnsPerKey: 64}))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	body := chatBody("user", "How do I configure the safety guard?")
	var mu sync.Mutex
	var took []time.Duration
	var sent atomic.Int64
	var heapEarly uint64
	early := int64(max(b.N/10, 1))
	b.SetParallelism(32) // 32 per core: 64 clients on two cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			if sent.Add(1) == early {
				heapEarly = liveHeap()
			}
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
	b.StopTimer()
	heapEnd := liveHeap()
	client.CloseIdleConnections()
	ts.Close()
	goleak.VerifyNone(b, before)
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(len(took))/elapsed.Seconds(), "turns/s")
	for _, p := range []int{50, 90, 99} {
		b.ReportMetric(float64(took[len(took)*p/100].Microseconds())/1000, "p"+strconv.Itoa(p)+"-ms")
	}
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(heapEarly)/(1<<20), "heap-MB-at-10%")
	b.ReportMetric(float64(heapEnd)/(1<<20), "heap-MB-at-end")
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
