// Package graph builds agent graphs over a state of your own, in the style
// of LangGraph, compiled onto eino's compose graph (so eino components work
// inside nodes).
//
// A graph is New[S], four verbs and Compile:
//
//   - AddNode(name, fn, opts...): a node is a plain function over the state,
//     func(ctx, S) (S, error); WithRetry and WithTimeout give it a policy. A
//     compiled graph becomes a node of another through Subgraph.
//   - AddEdge(from, to): a fixed edge. Several edges out of one node run
//     their targets in parallel, each on its own copy of the state (by its
//     Clone() S method, or a deep copy: Runnable.StateCopy says which); a
//     node with several edges in from parallel branches waits for all of
//     them and starts on their merged state.
//   - AddConditionalEdges(from, router, targets): the router picks the keys
//     of targets: ByFunc (one key), ByKeys (several, in parallel), BySend
//     (one node several times with its own state each: map-reduce) or
//     ByTable (the decision a node recorded in the state from a decision
//     table). The router labels the edges in the Mermaid diagram.
//   - Compile(ctx, opts...) checks everything at once and returns a
//     Runnable; Invoke runs it, Stream yields its events in LangGraph's
//     stream modes (values, updates, messages, custom, debug).
//
// Parallel branches are merged by WithMerge (given the state from before
// the fan-out and the branches), or, for a struct state, field
// by field with the reducers its `reduce` tags name (append, union, sum,
// max, min, last); two branches that write different values to a field
// without a reducer fail the run with an InvalidUpdateError naming the field
// and the branches. Branches merge in declaration order, so a run is
// deterministic.
//
// Inside a node, Goto names the next nodes (declared by WithDestinations),
// GotoParent does so for the graph that runs this one as a subgraph,
// RemainingSteps says how many steps the run has left and ContextOf reads
// the run's value (WithContext). A node may be cached (WithCache), wait for
// every other branch (WithDefer) or hand its failure to another node
// (WithFallback, ErrorOf).
//
// Logging, timing and counting are Middleware, installed at Compile.
package graph
