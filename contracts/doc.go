// Package contracts holds the types that flow through an sgrgraph turn: the
// ChatState every node reads and writes, the SGR plan the model fills, the
// Guardian's moderation and verdict, evidence, traces and the structured
// result. It holds types only; behaviour lives in the packages that use them.
//
// # Three outputs
//
// ChatState keeps three outputs apart: Messages is the model context, UI is
// what a person sees, and everything else is structured metadata.
package contracts
