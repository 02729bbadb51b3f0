package graph

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/checkpoint/sqlite"
)

// ckptState is a small JSON-encodable state, like a conversation turn's: a
// few fields, a plan, and Payload for the benchmarks of the state's size.
type ckptState struct {
	Query   string   `json:"query"`
	Plan    []string `json:"plan"`
	Answer  string   `json:"answer,omitempty"`
	Retries int      `json:"retries"`
	Loops   int      `json:"loops"`
	Payload []string `json:"payload,omitempty"`
}

func newCkptState(loops int, payload []string) *ckptState {
	return &ckptState{
		Query: "what changed in the Q3 report since the last review?",
		Plan:  []string{"find the Q3 report", "diff it against Q2", "summarise the changes"},
		Loops: loops, Payload: payload,
	}
}

func ckptNoop(_ context.Context, s *ckptState) (*ckptState, error) { return s, nil }

func ckptBump(_ context.Context, s *ckptState) (*ckptState, error) { s.Retries++; return s, nil }

func ckptVerdict(_ context.Context, s *ckptState) (string, error) {
	if s.Retries < s.Loops {
		return "retry", nil
	}
	return "pass", nil
}

// ckptShape is BenchmarkShape's graph (the same nodes and edges as
// frameworkShape) over ckptState, compiled with opts.
func ckptShape(b *testing.B, opts ...CompileOption) *Runnable[*ckptState] {
	b.Helper()
	g := New[*ckptState]("shape")
	prev := START
	for _, n := range shape {
		g.AddNode(n, ckptNoop).AddEdge(prev, n)
		prev = n
	}
	g.AddNode("retry_bump", ckptBump).AddEdge("retry_bump", "react_agent").
		AddConditionalEdges(prev, ByFunc(ckptVerdict), map[string]string{"retry": "retry_bump", "pass": END})
	r, err := g.Compile(context.Background(), opts...)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// ckptSteps is the number of node steps of one run of the shape.
func ckptSteps(loops int) int { return len(shape) + loops*4 }

func openSQLite(b *testing.B) checkpoint.Store {
	store, _ := openSQLiteFile(b)
	return store
}

// openSQLiteFile opens a SQLite store in a new file and returns its path.
func openSQLiteFile(b *testing.B) (checkpoint.Store, string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "t.db")
	store, err := sqlite.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	return store, path
}

// reportPerStep reports us/step: ns/op divided by the node steps of one run.
func reportPerStep(b *testing.B, steps int) {
	if b.N == 0 {
		return
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(float64(steps), "steps/op")
	b.ReportMetric(perOp/float64(steps)/1e3, "us/step")
}

// BenchmarkShapeCheckpointed runs BenchmarkShape's graph with a thread on no
// checkpointer, the memory store and SQLite: one thread, one run per
// iteration, as the turns of a conversation. A run writes a checkpoint
// before each node step and one at its end, and reads the thread's latest
// once. us/step is the cost of one node step with its checkpoint.
func BenchmarkShapeCheckpointed(b *testing.B) {
	stores := []struct {
		name string
		open func(*testing.B) checkpoint.Store
	}{
		{"none", nil},
		{"memory", func(*testing.B) checkpoint.Store { return checkpoint.NewMemory() }},
		{"sqlite", openSQLite},
	}
	for _, loops := range []int{0, 3} {
		steps := ckptSteps(loops)
		for _, st := range stores {
			b.Run(fmt.Sprintf("loops=%d/%s", loops, st.name), func(b *testing.B) {
				var opts []CompileOption
				var run []RunOption
				if st.open != nil {
					opts = append(opts, WithCheckpointer(st.open(b)))
					run = append(run, WithThread("conversation"))
				}
				r := ckptShape(b, opts...)
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.Invoke(ctx, newCkptState(loops, nil), run...); err != nil {
						b.Fatal(err)
					}
				}
				reportPerStep(b, steps)
			})
		}
	}
}

// BenchmarkThreadLength measures one run of the linear shape on a SQLite
// thread that already holds N earlier runs. After each measured run (outside
// the timer) its checkpoints are deleted again, so every iteration sees a
// thread of exactly N runs however many iterations there are. They are
// deleted through a second connection to the file, by the store's schema
// (table checkpoints, seq numbering a thread's rows from 1): Store.Prune
// would delete the oldest rows instead, whose pages lie elsewhere in the
// B-trees, and the extra WAL frames of those deletes would be checkpointed
// by the measured runs, a cost that grows with N and is not the run's.
func BenchmarkThreadLength(b *testing.B) {
	const thread = "conversation"
	perRun := ckptSteps(0) + 1 // checkpoints of one run: one per node step, one at the end
	for _, n := range []int{0, 10, 100} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			ctx := context.Background()
			store, path := openSQLiteFile(b)
			raw, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=busy_timeout(10000)")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = raw.Close() })
			r := ckptShape(b, WithCheckpointer(store))
			for range n {
				if _, err := r.Invoke(ctx, newCkptState(0, nil), WithThread(thread)); err != nil {
					b.Fatal(err)
				}
			}
			cps, err := store.List(ctx, thread, checkpoint.ListOptions{})
			if err != nil || len(cps) != n*perRun {
				b.Fatalf("the thread has %d checkpoints, want %d (%v)", len(cps), n*perRun, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Invoke(ctx, newCkptState(0, nil), WithThread(thread)); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				res, err := raw.ExecContext(ctx, `DELETE FROM checkpoints WHERE thread = ? AND seq > ?`, thread, n*perRun)
				if err != nil {
					b.Fatal(err)
				}
				if deleted, err := res.RowsAffected(); err != nil || deleted != int64(perRun) {
					b.Fatalf("deleted %d checkpoints of the measured run, want %d (%v)", deleted, perRun, err)
				}
				b.StartTimer()
			}
			reportPerStep(b, ckptSteps(0))
		})
	}
}

// ckptPayload is about size bytes of chat-like messages (~1 KB each, with
// quotes and newlines for the JSON encoder to escape).
func ckptPayload(size int) []string {
	msg := strings.Repeat(`The tool returned "42 rows"; the agent checks them.`+"\n", 20)
	enc, _ := json.Marshal(msg) // 1102 bytes
	out := make([]string, max(1, (size+len(enc)/2)/len(enc)))
	for i := range out {
		out[i] = msg
	}
	return out
}

// BenchmarkCheckpointStateSize runs the linear shape on SQLite with a state
// carrying ~5 KB, ~50 KB and ~250 KB of payload: every checkpoint encodes
// and stores the whole state. KB/state is the encoded state; MB/s counts
// the state bytes of every checkpoint the run writes.
func BenchmarkCheckpointStateSize(b *testing.B) {
	steps := ckptSteps(0)
	for _, kb := range []int{5, 50, 250} {
		b.Run(fmt.Sprintf("state=%dKB", kb), func(b *testing.B) {
			ctx := context.Background()
			payload := ckptPayload(kb << 10)
			encoded, err := json.Marshal(newCkptState(0, payload))
			if err != nil {
				b.Fatal(err)
			}
			r := ckptShape(b, WithCheckpointer(openSQLite(b)))
			b.SetBytes(int64(len(encoded) * (steps + 1)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Invoke(ctx, newCkptState(0, payload), WithThread("conversation")); err != nil {
					b.Fatal(err)
				}
			}
			reportPerStep(b, steps)
			b.ReportMetric(float64(len(encoded))/1024, "KB/state")
		})
	}
}
