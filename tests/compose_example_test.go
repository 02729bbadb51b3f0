package tests

import (
	"context"
	"fmt"
	"strings"

	"github.com/sgrgraph/sgrgraph/graph"
)

// Example_composeYourOwnGraph is the README's example; TestDocSnippets
// keeps the two the same.
func Example_composeYourOwnGraph() {
	type Greeting struct{ Name, Text string }
	greet := func(_ context.Context, g *Greeting) (*Greeting, error) {
		g.Text = "Hello, " + g.Name
		return g, nil
	}
	shout := func(_ context.Context, g *Greeting) (*Greeting, error) {
		g.Text = strings.ToUpper(g.Text)
		return g, nil
	}
	loud := func(_ context.Context, g *Greeting) (string, error) {
		if strings.HasSuffix(g.Name, "!") {
			return "loud", nil
		}
		return "calm", nil
	}
	r, err := graph.New[*Greeting]("hello").
		AddNode("greet", greet).
		AddNode("shout", shout).
		AddEdge(graph.START, "greet").
		AddConditionalEdges("greet", graph.ByFunc(loud), map[string]string{"loud": "shout", "calm": graph.END}).
		AddEdge("shout", graph.END).
		Compile(context.Background(), graph.WithMaxSteps(10))
	if err != nil {
		panic(err)
	}
	g, err := r.Invoke(context.Background(), &Greeting{Name: "world!"})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Text)
	// Output: HELLO, WORLD!
}
