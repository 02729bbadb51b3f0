package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sgrgraph/sgrgraph/graph"
)

// A node names the next node itself with Goto; WithDestinations declares
// where it may go, for Compile to check and the diagram to draw.
func ExampleGoto() {
	ctx := context.Background()
	triage := func(ctx context.Context, o *Order) (*Order, error) {
		if o.Total > 5 {
			graph.Goto(ctx, "review")
		} else {
			graph.Goto(ctx, "pay")
		}
		return o, nil
	}
	r, err := graph.New[*Order]("checkout").
		AddNode("triage", triage, graph.WithDestinations("review", "pay")).
		AddNode("review", add("reviewed", 0)).
		AddNode("pay", add("paid", 0)).
		AddEdge(graph.START, "triage").AddEdge("review", "pay").AddEdge("pay", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(ctx, &Order{Total: 8})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items)
	fmt.Print(r.Mermaid())
	// Output:
	// [reviewed paid]
	// flowchart TD
	//   START --> triage
	//   review --> pay
	//   pay --> END
	//   triage -. "goto" .-> pay
	//   triage -. "goto" .-> review
}

// A node of a subgraph hands the run back to its parent with GotoParent:
// the subgraph ends there and the parent goes on at the named node.
func ExampleGotoParent() {
	ctx := context.Background()
	check := func(ctx context.Context, o *Order) (*Order, error) {
		o.Items = append(o.Items, "checked")
		if o.Total == 0 {
			graph.GotoParent(ctx, "refuse") // the subgraph's fill does not run
		}
		return o, nil
	}
	fill := func(ctx context.Context, o *Order) (*Order, error) {
		o.Items = append(o.Items, "filled")
		graph.GotoParent(ctx, "pay")
		return o, nil
	}
	sub, err := graph.New[*Order]("basket").
		AddNode("check", check).AddNode("fill", fill).
		AddEdge(graph.START, "check").AddEdge("check", "fill").AddEdge("fill", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	r, err := graph.New[*Order]("shop").
		AddNode("basket", graph.Subgraph(sub), graph.WithDestinations("pay", "refuse")).
		AddNode("pay", add("paid", 0)).AddNode("refuse", add("refused", 0)).
		AddEdge(graph.START, "basket").AddEdge("pay", graph.END).AddEdge("refuse", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	for _, total := range []int{0, 3} {
		o, err := r.Invoke(ctx, &Order{Total: total})
		if err != nil {
			panic(err)
		}
		fmt.Println(o.Items)
	}
	// Output:
	// [checked refused]
	// [checked filled paid]
}

// A cached node runs once per key; later runs with the key apply its
// cached update instead.
func ExampleWithCache() {
	ctx := context.Background()
	calls := 0
	price := func(_ context.Context, o *Order) (*Order, error) {
		calls++
		o.Total = 3 * len(o.Items)
		return o, nil
	}
	byItems := graph.CachePolicy[*Order]{Key: func(o *Order) string { return strings.Join(o.Items, ",") }, TTL: time.Hour}
	r, err := graph.New[*Order]("price").
		AddNode("price", price, graph.WithCache(byItems)).
		AddEdge(graph.START, "price").AddEdge("price", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	for range 3 {
		o, err := r.Invoke(ctx, &Order{Items: []string{"tea", "cake"}})
		if err != nil {
			panic(err)
		}
		fmt.Println(o.Total)
	}
	fmt.Println("calls:", calls)
	// Output:
	// 6
	// 6
	// 6
	// calls: 1
}

// A deferred node waits for every pending branch, however long, and runs
// once on their merged state.
func ExampleWithDefer() {
	ctx := context.Background()
	r, err := graph.New[*Order]("order").
		AddNode("basket", add("basket", 0)).
		AddNode("tea", add("tea", 3)).
		AddNode("cake", add("cake", 5)).AddNode("icing", add("icing", 1)).
		AddNode("receipt", add("receipt", 0), graph.WithDefer()).
		AddEdge(graph.START, "basket").
		AddEdge("basket", "tea").AddEdge("basket", "cake").AddEdge("cake", "icing").
		AddEdge("tea", "receipt").AddEdge("icing", "receipt").
		AddEdge("receipt", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(ctx, &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items, o.Total)
	// Output: [basket tea cake icing receipt] 9
}

// A node that loops stops before the step limit stops the run.
func ExampleRemainingSteps() {
	ctx := context.Background()
	work := func(ctx context.Context, o *Order) (*Order, error) {
		o.Items = append(o.Items, fmt.Sprint(graph.RemainingSteps(ctx)))
		if graph.RemainingSteps(ctx) > 2 {
			graph.Goto(ctx, "work")
		} else {
			graph.Goto(ctx, graph.END)
		}
		return o, nil
	}
	r, err := graph.New[*Order]("loop").
		AddNode("work", work, graph.WithDestinations("work", graph.END)).
		AddEdge(graph.START, "work").
		Compile(ctx, graph.WithMaxSteps(5))
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(ctx, &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items)
	// Output: [5 4 3 2]
}

// Caller is what a run knows about who asked for it.
type Caller struct{ Name string }

// A run carries a typed value of its own (who asked, a handle) that every
// node reads with ContextOf.
func ExampleContextOf() {
	ctx := context.Background()
	greet := func(ctx context.Context, o *Order) (*Order, error) {
		if c, ok := graph.ContextOf[Caller](ctx); ok {
			o.Items = append(o.Items, "for "+c.Name)
		}
		return o, nil
	}
	r, err := graph.New[*Order]("greet").
		AddNode("greet", greet).
		AddEdge(graph.START, "greet").AddEdge("greet", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(ctx, &Order{}, graph.WithContext(Caller{Name: "Ann"}))
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items)
	// Output: [for Ann]
}

// A node that fails for good hands the run to its fallback, which reads
// the error with ErrorOf.
func ExampleWithFallback() {
	ctx := context.Background()
	charge := func(context.Context, *Order) (*Order, error) {
		return nil, errors.New("card declined")
	}
	apologise := func(ctx context.Context, o *Order) (*Order, error) {
		o.Items = append(o.Items, "sorry: "+graph.ErrorOf(ctx).Error())
		return o, nil
	}
	r, err := graph.New[*Order]("pay").
		AddNode("charge", charge, graph.WithFallback("apologise")).
		AddNode("apologise", apologise).
		AddNode("receipt", add("receipt", 0)).
		AddEdge(graph.START, "charge").AddEdge("charge", "receipt").
		AddEdge("apologise", "receipt").AddEdge("receipt", graph.END).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	o, err := r.Invoke(ctx, &Order{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Items)
	// Output: [sorry: card declined receipt]
}
