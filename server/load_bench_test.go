package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
	"github.com/sgrgraph/sgrgraph/config"
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
	serveLoad(b, New(offline, Options{MaxTurnsPerKey: 64}), false)
}

// BenchmarkServeLoadSessions is the load test with sessions: each of the
// 64 clients sends X-Session-Id, its own, so every turn reads its session's
// last turn from a SQLite thread store, holds the thread and checkpoints
// the turn there, as `sgrgraph serve` does. Besides the figures of
// BenchmarkServeLoad it reports what the store was given per turn
// (put-KB/turn: the states and headers of its Puts) and what it wrote
// (written-KB/turn, when the store counts it), and the checkpoints a turn
// wrote.
//
//	go test -run '^$' -bench ServeLoad -benchtime 20000x -count 5 ./server
func BenchmarkServeLoadSessions(b *testing.B) {
	store, err := sqlite.Open(filepath.Join(b.TempDir(), "threads.db"))
	if err != nil {
		b.Fatal(err)
	}
	counted := &countingStore{Store: store, Locker: store.(checkpoint.Locker)}
	cfg := config.Default()
	cfg.KB.CacheDir = b.TempDir()
	a, err := agent.New(context.Background(), cfg, agent.Options{Knowledge: offline.Knowledge(), Store: counted})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { a.Close(); _ = store.Close() }()
	turns := serveLoad(b, New(a, Options{MaxTurnsPerKey: 64, Sessions: true}), true)
	if turns > 0 {
		b.ReportMetric(float64(counted.given.Load())/1024/float64(turns), "put-KB/turn")
		b.ReportMetric(float64(counted.puts.Load())/float64(turns), "puts/turn")
		if m, ok := store.(checkpoint.Meter); ok {
			b.ReportMetric(float64(m.Written().Bytes)/1024/float64(turns), "written-KB/turn")
		}
	}
}

// countingStore counts the Puts a store is given and their bytes.
type countingStore struct {
	checkpoint.Store
	checkpoint.Locker
	puts, given atomic.Int64
}

func (c *countingStore) Put(ctx context.Context, cp checkpoint.Checkpoint) (checkpoint.Checkpoint, error) {
	n := len(cp.State)
	for _, b := range cp.Branches {
		n += len(b.State)
	}
	for _, in := range cp.Interrupts {
		n += len(in.Payload) + len(in.Value)
	}
	c.puts.Add(1)
	c.given.Add(int64(n))
	return c.Store.Put(ctx, cp)
}

// serveLoad runs the load test against h and returns how many turns were
// answered; with sessions each client continues a session of its own.
func serveLoad(b *testing.B, h http.Handler, sessions bool) int {
	before := goleak.IgnoreCurrent()
	ts := httptest.NewServer(h)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	body := chatBody("user", "How do I configure the safety guard?")
	var mu sync.Mutex
	var took []time.Duration
	var sent atomic.Int64
	var heapEarly uint64
	early := int64(max(b.N/10, 1))
	b.SetParallelism(32) // 32 per core: 64 clients on two cores
	b.ResetTimer()
	start, cpuStart := time.Now(), cpuTime()
	var clients atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		session := "load-" + strconv.FormatInt(clients.Add(1), 10)
		for pb.Next() {
			if sent.Add(1) == early {
				heapEarly = liveHeap()
			}
			t0 := time.Now()
			req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/chat/completions", strings.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			req.Header.Set("Content-Type", "application/json")
			if sessions {
				req.Header.Set("X-Session-Id", session)
			}
			res, err := client.Do(req)
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
	elapsed, cpu := time.Since(start), cpuTime()-cpuStart
	b.StopTimer()
	heapEnd := liveHeap()
	client.CloseIdleConnections()
	ts.Close()
	goleak.VerifyNone(b, before)
	if len(took) == 0 {
		return 0
	}
	slices.Sort(took)
	b.ReportMetric(float64(len(took))/elapsed.Seconds(), "turns/s")
	if cpu > 0 { // the server's and the clients' processor time: steadier than turns/s on a shared machine
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/turn")
	}
	for _, p := range []int{50, 90, 99} {
		b.ReportMetric(float64(took[len(took)*p/100].Microseconds())/1000, "p"+strconv.Itoa(p)+"-ms")
	}
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(heapEarly)/(1<<20), "heap-MB-at-10%")
	b.ReportMetric(float64(heapEnd)/(1<<20), "heap-MB-at-end")
	return len(took)
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
