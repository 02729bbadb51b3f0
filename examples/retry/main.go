// Command retry shows node policies: "flaky" fails on its first two
// attempts and succeeds on the third under a retry policy, and "stuck"
// ignores its work's end and is cut off by a 50 ms timeout, with an error
// that names the node and wraps context.DeadlineExceeded.
//
// Run it with `go run ./examples/retry`; it prints output.txt.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Call is the graph's state.
type Call struct {
	Log []string
}

// Clone lets each attempt start from the state as it was before the first.
func (c *Call) Clone() *Call {
	return &Call{Log: append([]string(nil), c.Log...)}
}

func flaky(ctx context.Context, c *Call) (*Call, error) {
	n := graph.Attempt(ctx)
	if n < 3 {
		fmt.Fprintf(logOf(ctx), "flaky: attempt %d failed\n", n)
		return nil, errors.New("service unavailable")
	}
	c.Log = append(c.Log, fmt.Sprintf("flaky succeeded on attempt %d", n))
	return c, nil
}

func stuck(ctx context.Context, c *Call) (*Call, error) {
	time.Sleep(2 * time.Second) // does not watch ctx: the timeout still ends the attempt
	return c, nil
}

type logKey struct{}

func logOf(ctx context.Context) io.Writer { return ctx.Value(logKey{}).(io.Writer) }

func run(ctx context.Context, w io.Writer) error {
	ctx = context.WithValue(ctx, logKey{}, w)
	retry := graph.WithRetry(graph.RetryPolicy{MaxAttempts: 3, InitialInterval: 10 * time.Millisecond})
	r, err := graph.New[*Call]("retry").
		AddNode("flaky", flaky, retry).
		AddEdge(graph.START, "flaky").AddEdge("flaky", graph.END).
		Compile(ctx)
	if err != nil {
		return err
	}
	out, err := r.Invoke(ctx, &Call{})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, out.Log[0])

	r, err = graph.New[*Call]("timeout").
		AddNode("stuck", stuck, graph.WithTimeout(50*time.Millisecond)).
		AddEdge(graph.START, "stuck").AddEdge("stuck", graph.END).
		Compile(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	_, err = r.Invoke(ctx, &Call{})
	fmt.Fprintf(w, "stuck: %s\n", strings.SplitN(err.Error(), "\n", 2)[0])
	fmt.Fprintf(w, "stuck: the error wraps context.DeadlineExceeded: %t\n", errors.Is(err, context.DeadlineExceeded))
	fmt.Fprintf(w, "stuck: gave up within a second: %t\n", time.Since(start) < time.Second)
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
