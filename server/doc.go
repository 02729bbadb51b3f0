// Package server serves sgrgraph's default turn over HTTP in OpenAI's wire
// format, so that any OpenAI client (the official SDKs, LangChain, a chat
// UI) can talk to a guarded agent by changing its base URL:
//
//	POST /v1/chat/completions   OpenAI chat completions, streaming or not
//	GET  /v1/models             the one model this server answers as
//	POST /v1/turns              one turn, answered with the whole StructuredResult
//	GET  /v1/threads/{id}       a session's last turns
//	GET  /healthz, /readyz      liveness and readiness
//	GET  /metrics               Prometheus metrics (counts and latencies only)
//
// Everything a turn produced (verdict, evidence, decisions) rides along in
// the "sgrgraph" field of a completion and of its final stream chunk when
// the request asks for it with "X-Sgrgraph-Result: full"; OpenAI clients
// ignore the field, and without the header it is not sent.
//
// The handler trusts nothing it is sent: API keys are compared in constant
// time, bodies, messages and turns in flight are bounded, every error has
// OpenAI's error shape, and a panic becomes a 500, never a dead process.
// Streams carry only what the agent's events carry: an answer the Guardian
// has passed, never a withdrawn draft.
package server
