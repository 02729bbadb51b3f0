// Package graph is where sgrgraph's graphs are built: a LangGraph-style
// StateGraph over eino for *contracts.ChatState, with conditional edges
// driven by the decision tables of package tables.
package graph
