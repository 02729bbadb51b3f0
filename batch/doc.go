// Package batch runs the default turn over every row of a request table
// (.xlsx, .csv or .jsonl), the way support teams feed tickets in. Each row
// goes through the same handler as ask and chat; a bounded pool of workers
// runs the turns; every finished row is appended at once to a results file
// (the full structured result, one JSON line per row), so a crash or
// Ctrl-C loses nothing and a re-run skips what is done. The output table,
// in input order with every original column kept and the result columns
// added, is written from the input and the results file at the end.
package batch
