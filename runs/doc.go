// Package runs queues turns in Redis Streams, for workers on any machine
// to run: long or bursty work leaves the server that took it.
//
// A run is one queued turn. Submit records it (a hash: its turn, owner,
// status, result) and adds its id to one stream, read by a consumer group
// of Workers. A worker renews its claim on a run while the turn runs; a
// worker that dies stops renewing, and after Options.Claim another worker
// takes the run and runs it from the start. Finishing is one Lua script
// that records the result only if no attempt recorded one before, and
// acknowledges the delivery: a finished run is never run again, whatever
// dies afterwards. Each run's events (contracts.Event, then its result or
// error) go to a stream of their own that clients read, or wait on, from
// any position (Events).
//
// Remote is the client side for code that wants a result: it submits a turn
// under an id derived from the turn and waits for it, so that a caller who
// restarts and submits the same turn again gets the first run's result.
// Waiting (Wait) follows the run's events across reconnections and lasts as
// long as the limits the run records (Limits): its worker's turn timeout
// and claim, and its submitter's QueueWait.
// The batch command spreads a table over workers this way.
package runs
