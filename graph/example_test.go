package graph_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Order is a state of your own; the reduce tags say how parallel branches
// combine.
type Order struct {
	Items []string `reduce:"append"`
	Total int      `reduce:"sum"`
}

// Clone gives each parallel branch its own copy.
func (o *Order) Clone() *Order {
	c := *o
	c.Items = slices.Clone(o.Items)
	return &c
}

func add(item string, price int) graph.NodeFunc[*Order] {
	return func(_ context.Context, o *Order) (*Order, error) {
		o.Items = append(o.Items, item)
		o.Total += price
		return o, nil
	}
}

// A graph over a state of your own: two branches run in parallel and are
// merged by the field reducers, in edge order.
func Example() {
	r, err := graph.New[*Order]("order").
		AddNode("basket", add("basket", 0)).
		AddNode("tea", add("tea", 3)).
		AddNode("cake", add("cake", 5)).
		AddNode("pay", add("receipt", 0)).
		AddEdge(graph.START, "basket").
		AddEdge("basket", "tea").AddEdge("basket", "cake").
		AddEdge("tea", "pay").AddEdge("cake", "pay").
		AddEdge("pay", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(context.Background(), &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items, o.Total)
	// Output: [basket tea cake receipt] 8
}

// Status has a field without a reducer.
type Status struct {
	State string
}

func (s *Status) Clone() *Status { c := *s; return &c }

func set(state string) graph.NodeFunc[*Status] {
	return func(_ context.Context, s *Status) (*Status, error) {
		s.State = state
		return s, nil
	}
}

// Two branches that write different values to a field without a reducer
// fail the run with an error naming the field and the branches.
func ExampleInvalidUpdateError() {
	r, err := graph.New[*Status]("conflict").
		AddNode("fork", set("")).AddNode("b", set("open")).AddNode("c", set("closed")).AddNode("join", set("joined")).
		AddEdge(graph.START, "fork").AddEdge("fork", "b").AddEdge("fork", "c").
		AddEdge("b", "join").AddEdge("c", "join").AddEdge("join", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	_, err = r.Invoke(context.Background(), &Status{})
	var iu *graph.InvalidUpdateError
	if errors.As(err, &iu) {
		fmt.Println(iu.Field, iu.Branches)
	}
	// Output: State [b c]
}

// BySend runs one node once per Send, each with its own state, and merges
// the runs in Send order (map-reduce).
func ExampleBySend() {
	each := func(_ context.Context, o *Order) ([]graph.Send[*Order], error) {
		return []graph.Send[*Order]{{Key: "price", State: &Order{Items: []string{"tea"}}}, {Key: "price", State: &Order{Items: []string{"cake"}}}}, nil
	}
	price := func(_ context.Context, o *Order) (*Order, error) {
		o.Total += map[string]int{"tea": 3, "cake": 5}[o.Items[0]]
		return o, nil
	}
	r, err := graph.New[*Order]("prices").
		AddNode("split", add("order", 0)).AddNode("price", price).
		AddEdge(graph.START, "split").
		AddConditionalEdges("split", graph.BySend(each), map[string]string{"price": "price"}).
		AddEdge("price", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(context.Background(), &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items, o.Total)
	// Output: [order] 8
}

// Stream yields a run's events in the modes asked for, and ends with the
// final state. An update holds what the node changed: of a list tagged
// `reduce:"append"`, only the items it appended.
func ExampleRunnable_Stream() {
	r, err := graph.New[*Order]("stream").
		AddNode("tea", add("tea", 3)).
		AddNode("cake", add("cake", 5)).
		AddEdge(graph.START, "tea").AddEdge("tea", "cake").AddEdge("cake", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	for c, err := range r.Stream(context.Background(), &Order{}, graph.WithStreamModes(graph.StreamUpdates)) {
		if err != nil {
			panic(err)
		}
		switch c.Mode {
		case graph.StreamUpdates:
			fmt.Println(c.Path, string(c.Update["Items"]), string(c.Update["Total"]))
		case graph.StreamEnd:
			fmt.Println("end", c.State.Total)
		}
	}
	// Output:
	// tea ["tea"] 3
	// cake ["cake"] 8
	// end 8
}

// WithMerge combines parallel branches by a function of your own. It gets
// the state from before the fan-out as well as the branches, each of which
// holds that state and its own changes, so it adds only what each branch
// added.
func ExampleWithMerge() {
	merge := func(_ context.Context, base *Order, branches []*Order) (*Order, error) {
		n, total := len(base.Items), base.Total
		for _, b := range branches {
			base.Items = append(base.Items, b.Items[n:]...) // what the branch added
			base.Total += b.Total - total
		}
		return base, nil
	}
	r, err := graph.New[*Order]("order").
		AddNode("basket", add("basket", 1)).
		AddNode("tea", add("tea", 3)).
		AddNode("cake", add("cake", 5)).
		AddNode("pay", add("receipt", 0)).
		AddEdge(graph.START, "basket").
		AddEdge("basket", "tea").AddEdge("basket", "cake").
		AddEdge("tea", "pay").AddEdge("cake", "pay").
		AddEdge("pay", graph.END).
		Compile(context.Background(), graph.WithMerge(merge))
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(context.Background(), &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items, o.Total)
	// Output: [basket tea cake receipt] 9
}

// Draft has no Clone method: the graph copies it for each attempt.
type Draft struct {
	Lines []string
}

// A state without a Clone method is copied by the framework: each attempt
// of a retried node, each parallel branch and each Send starts on a deep
// copy of its own, so a failed attempt leaves nothing behind.
// Runnable.StateCopy says which copy a graph makes.
func ExampleRunnable_StateCopy() {
	write := func(ctx context.Context, d *Draft) (*Draft, error) {
		d.Lines = append(d.Lines, fmt.Sprintf("attempt %d", graph.Attempt(ctx)))
		if graph.Attempt(ctx) < 3 {
			return d, errors.New("the model timed out")
		}
		return d, nil
	}
	r, err := graph.New[*Draft]("draft").
		AddNode("write", write, graph.WithRetry(graph.RetryPolicy{MaxAttempts: 3, InitialInterval: time.Millisecond})).
		AddEdge(graph.START, "write").AddEdge("write", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	d, err := r.Invoke(context.Background(), &Draft{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.StateCopy())
	fmt.Println(d.Lines)
	// Output:
	// deep copy
	// [attempt 3]
}

// A server that runs a graph for many clients at once runs each request
// under Yielding, so that turns share the processors with each other and
// with the requests being read and written.
func ExampleYielding() {
	r, err := graph.New[*Order]("order").
		AddNode("tea", add("tea", 3)).
		AddEdge(graph.START, "tea").AddEdge("tea", graph.END).
		Compile(context.Background())
	if err != nil {
		panic(err)
	}
	handle := func(ctx context.Context) (*Order, error) {
		ctx = graph.Yielding(ctx) // before Invoke or agent.Run, once per request
		return r.Invoke(ctx, &Order{})
	}
	o, err := handle(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items, o.Total)
	// Output: [tea] 3
}
