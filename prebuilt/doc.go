// Package prebuilt is LangGraph's prebuilt agent pieces for any state that
// holds a conversation, built on package graph and eino's model and tool
// interfaces:
//
//   - Messages, the state interface of "has a message list", and
//     MessagesState, a struct to embed that gives it (the list is reduced by
//     append when parallel branches meet);
//   - ToolNode (LangGraph's ToolNode): a node that runs the tool calls of
//     the last message in parallel and answers each with a tool message, in
//     call order, a failure included, with a retry and timeout policy per
//     tool, a person's approval before chosen tools (graph.Interrupt), and
//     every result screened for orders to the assistant;
//   - ToolsCondition (tools_condition): the router to the tools or out;
//   - NewAgent (create_agent, create_react_agent): a compiled model ⇄ tools
//     loop over your own state, usable alone or as graph.Subgraph, with a
//     forced first tool call, an iteration limit that ends with an answer,
//     structured output into a Go struct, approvals and token streaming;
//   - NewTool and NewStateTool: tools from Go functions with a typed input
//     (eino's utils.InferTool); a state tool also gets a copy of the state
//     (InjectedState);
//   - Trim and TrimNode (trim_messages), Summarize and SummarizeNode:
//     keeping a conversation within a token budget by dropping or folding
//     its older messages;
//   - WithToolCallBranches, WithNodeNames, WithModelNode, WithToolsNode:
//     each tool call a graph branch of its own, and nodes named or
//     supplied by the caller in NewAgent's loop.
//
// The default turn's react_agent is NewAgent over *contracts.ChatState
// with the turn's own model, call and tools nodes (its call_tool screens
// with a screen of its own that sets single articles aside as evidence);
// its agent.Carry cuts the carried history with Trim.
package prebuilt
