package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Job is the state of the verbs' tour: each step leaves a line in Log.
type Job struct {
	Input string   `json:"input"`
	Log   []string `json:"log" reduce:"append"`
	Done  bool     `json:"done"`
}

func (j *Job) note(s string) *Job { j.Log = append(j.Log, s); return j }

// Team is the run's context a node reads with graph.ContextOf.
type Team struct{ Name string }

// verbs runs one small graph per verb of the framework, as a program
// outside the module uses them, and prints a line for each.
func verbs(ctx context.Context, w io.Writer) error {
	for _, v := range []struct {
		name string
		run  func(context.Context) (string, error)
	}{
		{"goto", gotoAndContext}, {"send and merge", sendAndMerge}, {"cache", cached},
		{"defer", deferred}, {"fallback", fallback}, {"threads", threads},
	} {
		line, err := v.run(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		fmt.Fprintf(w, "%s: %s\n", v.name, line)
	}
	return nil
}

// gotoAndContext: a node picks the next node itself (Command(goto=...)),
// reads the run's context and the steps left.
func gotoAndContext(ctx context.Context) (string, error) {
	route := func(ctx context.Context, j *Job) (*Job, error) {
		team, _ := graph.ContextOf[Team](ctx)
		graph.Goto(ctx, "urgent")
		return j.note(fmt.Sprintf("route for %s, %d steps left", team.Name, graph.RemainingSteps(ctx))), nil
	}
	urgent := func(_ context.Context, j *Job) (*Job, error) { return j.note("urgent"), nil }
	r, err := graph.New[*Job]("goto").
		AddNode("route", route, graph.WithDestinations("urgent")).
		AddNode("urgent", urgent).
		AddEdge(graph.START, "route").
		AddEdge("urgent", graph.END).
		Compile(ctx)
	if err != nil {
		return "", err
	}
	out, err := r.Invoke(ctx, &Job{}, graph.WithContext(Team{Name: "ops"}))
	return strings.Join(out.Log, "; "), err
}

// sendAndMerge: one node run once per word (Send), joined by a merge that
// also sees the state from before the fan-out.
func sendAndMerge(ctx context.Context) (string, error) {
	split := func(_ context.Context, j *Job) ([]graph.Send[*Job], error) {
		var sends []graph.Send[*Job]
		for _, word := range strings.Fields(j.Input) {
			sends = append(sends, graph.Send[*Job]{Key: "upper", State: &Job{Input: word}})
		}
		return sends, nil
	}
	upper := func(_ context.Context, j *Job) (*Job, error) { return j.note(strings.ToUpper(j.Input)), nil }
	merge := func(_ context.Context, base *Job, branches []*Job) (*Job, error) {
		for _, b := range branches {
			base.Log = append(base.Log, b.Log...)
		}
		return base, nil
	}
	begin := func(_ context.Context, j *Job) (*Job, error) { return j.note("begin"), nil }
	join := func(_ context.Context, j *Job) (*Job, error) { return j, nil }
	r, err := graph.New[*Job]("send").
		AddNode("begin", begin).
		AddNode("upper", upper).
		AddNode("join", join).
		AddEdge(graph.START, "begin").
		AddConditionalEdges("begin", graph.BySend(split), map[string]string{"upper": "upper"}).
		AddEdge("upper", "join").
		AddEdge("join", graph.END).
		Compile(ctx, graph.WithMerge(merge))
	if err != nil {
		return "", err
	}
	out, err := r.Invoke(ctx, &Job{Input: "go fast"})
	return strings.Join(out.Log, " "), err
}

// cached: the second run of the same input takes the node's output from
// the cache instead of running it.
func cached(ctx context.Context) (string, error) {
	calls := 0
	slow := func(_ context.Context, j *Job) (*Job, error) { calls++; return j.note("computed " + j.Input), nil }
	r, err := graph.New[*Job]("cache").
		AddNode("slow", slow, graph.WithCache(graph.CachePolicy[*Job]{Key: func(j *Job) string { return j.Input }, TTL: time.Minute})).
		AddEdge(graph.START, "slow").
		AddEdge("slow", graph.END).
		Compile(ctx, graph.WithCacheStore(graph.NewMemoryCache(16)))
	if err != nil {
		return "", err
	}
	for range 2 {
		if _, err := r.Invoke(ctx, &Job{Input: "report"}); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("2 runs, the node ran %d time(s)", calls), nil
}

// deferred: a node that waits for every branch, however many there are.
func deferred(ctx context.Context) (string, error) {
	step := func(name string) graph.NodeFunc[*Job] {
		return func(_ context.Context, j *Job) (*Job, error) { return j.note(name), nil }
	}
	both := func(_ context.Context, j *Job) ([]string, error) { return []string{"a", "b"}, nil }
	r, err := graph.New[*Job]("defer").
		AddNode("fork", step("fork")).
		AddNode("a", step("a")).
		AddNode("b", step("b")).
		AddNode("b2", step("b2")).
		AddNode("summary", func(_ context.Context, j *Job) (*Job, error) {
			return j.note(fmt.Sprintf("summary after %d", len(j.Log))), nil
		}, graph.WithDefer()).
		AddEdge(graph.START, "fork").
		AddConditionalEdges("fork", graph.ByKeys(both), map[string]string{"a": "a", "b": "b"}).
		AddEdge("a", "summary").
		AddEdge("b", "b2").
		AddEdge("b2", "summary").
		AddEdge("summary", graph.END).
		Compile(ctx)
	if err != nil {
		return "", err
	}
	out, err := r.Invoke(ctx, &Job{})
	if err != nil {
		return "", err
	}
	return out.Log[len(out.Log)-1], nil
}

// fallback: a node that fails for good after its retries hands over to
// another, which reads the error.
func fallback(ctx context.Context) (string, error) {
	attempts := 0
	flaky := func(_ context.Context, j *Job) (*Job, error) {
		attempts++
		return nil, errors.New("upstream down")
	}
	apology := func(ctx context.Context, j *Job) (*Job, error) {
		return j.note(fmt.Sprintf("apology, %d attempts made (%v)", attempts, graph.ErrorOf(ctx))), nil
	}
	r, err := graph.New[*Job]("fallback").
		AddNode("flaky", flaky, graph.WithRetry(graph.RetryPolicy{MaxAttempts: 2, InitialInterval: time.Millisecond}),
			graph.WithTimeout(time.Second), graph.WithFallback("apology")).
		AddNode("apology", apology).
		AddEdge(graph.START, "flaky").
		AddEdge("flaky", graph.END).
		AddEdge("apology", graph.END).
		Compile(ctx)
	if err != nil {
		return "", err
	}
	out, err := r.Invoke(ctx, &Job{})
	return strings.Join(out.Log, "; "), err
}

// threads: a run paused for a person, resumed; the thread edited and
// forked from an earlier checkpoint; a new input merged into the thread.
func threads(ctx context.Context) (string, error) {
	store := checkpoint.NewMemory()
	defer store.Close()
	ask := func(ctx context.Context, j *Job) (*Job, error) {
		ok, err := graph.Interrupt[bool](ctx, "approve "+j.Input+"?")
		if err != nil {
			return nil, err
		}
		return j.note(fmt.Sprintf("approved=%v", ok)), nil
	}
	finish := func(_ context.Context, j *Job) (*Job, error) { j.Done = true; return j.note("finish"), nil }
	r, err := graph.New[*Job]("threads").
		AddNode("ask", ask).
		AddNode("finish", finish).
		AddEdge(graph.START, "ask").
		AddEdge("ask", "finish").
		AddEdge("finish", graph.END).
		Compile(ctx, graph.WithCheckpointer(store))
	if err != nil {
		return "", err
	}
	var parts []string
	if _, err := r.Invoke(ctx, &Job{Input: "refund"}, graph.WithThread("t1")); err != nil && !graph.IsInterrupt(err) {
		return "", err
	}
	snap, err := r.State(ctx, "t1", graph.WithSubgraphs())
	if err != nil {
		return "", err
	}
	parts = append(parts, "paused before "+strings.Join(snap.Next, ","))
	if _, err := r.Invoke(ctx, &Job{Input: "other"}, graph.WithThread("t1")); err == nil {
		return "", errors.New("a new input was taken over a pending interrupt")
	}
	out, err := r.Resume(ctx, "t1", true)
	if err != nil {
		return "", err
	}
	parts = append(parts, "resumed: "+strings.Join(out.Log, ", "))

	// Edit the thread as if "ask" had said so, and run on from the edit.
	if _, err := r.UpdateState(ctx, &Job{Log: []string{"edited"}}, graph.WithThread("t1"), graph.AsNode("ask")); err != nil {
		return "", err
	}
	out, err = r.Invoke(ctx, nil, graph.WithThread("t1"))
	if err != nil {
		return "", err
	}
	parts = append(parts, "after the edit: "+out.Log[len(out.Log)-2]+", "+out.Log[len(out.Log)-1])

	// Fork from the first checkpoint: a new branch, the old history kept.
	history, err := r.History(ctx, "t1", graph.Last(100))
	if err != nil {
		return "", err
	}
	first := history[len(history)-1].ID
	if _, err := r.UpdateState(ctx, &Job{Input: "forked"}, graph.WithThread("t1"), graph.FromCheckpoint(first)); err != nil {
		return "", err
	}
	after, err := r.History(ctx, "t1", graph.Last(100))
	if err != nil {
		return "", err
	}
	parts = append(parts, fmt.Sprintf("forked: %d checkpoints, earlier ones kept: %v", len(after), len(after) > len(history)))

	// A second thread: its question replaced, then answered in a stream.
	if _, err := r.Invoke(ctx, &Job{Input: "first"}, graph.WithThread("t2")); err != nil && !graph.IsInterrupt(err) {
		return "", err
	}
	if _, err := r.Invoke(ctx, &Job{Input: "second"}, graph.WithThread("t2"), graph.ReplacePending()); err != nil && !graph.IsInterrupt(err) {
		return "", err
	}
	var last *Job
	for c, err := range r.Stream(ctx, nil, graph.WithThread("t2"), graph.WithResume(false)) {
		if err != nil {
			return "", err
		}
		if c.Mode == graph.StreamValues {
			last = c.State
		}
	}
	parts = append(parts, fmt.Sprintf("t2 streamed: done=%v, %s", last.Done, strings.Join(last.Log, ", ")))
	return strings.Join(parts, " | "), nil
}
