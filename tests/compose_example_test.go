package tests

import (
	"context"
	"fmt"
	"strings"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/graph"
)

// Example_composeYourOwnGraph is the README's example; TestReadmeExample
// keeps the two the same.
func Example_composeYourOwnGraph() {
	greet := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.Answer = "Hello, " + s.UserMessage
		return s, nil
	}
	shout := func(_ context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
		s.Answer = strings.ToUpper(s.Answer)
		return s, nil
	}
	loud := func(_ context.Context, s *contracts.ChatState) (string, error) {
		if strings.HasSuffix(s.UserMessage, "!") {
			return "loud", nil
		}
		return "calm", nil
	}
	g := graph.New("hello").
		AddNode("greet", greet).
		AddNode("shout", shout).
		AddEdge(graph.START, "greet").
		AddConditionalEdges("greet", loud, map[string]string{"loud": "shout", "calm": graph.END}).
		AddEdge("shout", graph.END)
	r, err := g.Compile(context.Background(), graph.WithMaxSteps(10))
	if err != nil {
		panic(err)
	}
	s, err := r.Invoke(context.Background(), &contracts.ChatState{UserMessage: "world!"})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Answer)
	// Output: HELLO, WORLD!
}
