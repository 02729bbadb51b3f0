// Package graph builds sgrgraph's agent graphs: a LangGraph-style StateGraph
// for *contracts.ChatState compiled onto eino's compose graph.
//
// Nodes are plain functions over the state. Edges are fixed (AddEdge) or
// conditional: a router function (AddConditionalEdges) or a decision table
// (AddTableEdges), whose output value picks the next node. Because a table is
// data, the same value that routes the turn labels the edges of the Mermaid
// diagram (Runnable.Mermaid).
//
// Compile always sets an explicit step limit: eino's default (nodes + 10
// supersteps) is reached by a retry loop around a tool loop. A compiled
// Runnable is safe to share between goroutines; each Invoke gets its own
// state.
//
// # Example
//
//	g := graph.New("echo")
//	g.AddNode("shout", func(ctx context.Context, s *contracts.ChatState) (*contracts.ChatState, error) {
//		s.Answer = strings.ToUpper(s.UserMessage)
//		return s, nil
//	})
//	g.AddEdge(graph.START, "shout")
//	g.AddEdge("shout", graph.END)
//	r, err := g.Compile(ctx)
//	out, err := r.Invoke(ctx, &contracts.ChatState{UserMessage: "hi"}) // out.Answer == "HI"
package graph
