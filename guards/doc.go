// Package guards holds the Guardian's pure checks: evidence sufficiency
// (seed 004 §3), the answer contract (§4) with a sensitive-data scan, and the
// query policy (L0). Every check takes values and returns a verdict; none
// uses a context, a clock, the network, a logger or eino, so each one is
// tested as a table and can run anywhere.
//
// Classifiers that do I/O live in guards/safety behind one interface.
package guards
