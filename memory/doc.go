// Package memory is long-term memory for agents: small JSON facts kept
// across threads (a user's preferences, what a tool learned), where package
// checkpoint keeps the history of one thread.
//
// # Model
//
// An Item is a JSON object under a namespace and a key. The namespace is a
// path of parts, such as {"users", "ann", "preferences"}: Search and List
// take a prefix of it, so one user's items, or all users', are one range
// of an index in every store. Put replaces the item at a namespace and key,
// keeping its Created time; Updated is the time of the last Put.
//
// An item may live for a TTL. An expired item is never returned, and it is
// removed: every Put purges up to a hundred expired items on its way, and
// Purge removes all of them (a program that stops writing may call it now
// and then).
//
// # Search
//
// Search keeps the live items under a prefix whose value matches a Filter
// (top-level fields equal to the given scalars; numbers compare by value,
// so 1 equals 1.0) and, with Text, that share a word with it. Words are
// matched as the knowledge base matches them: English and Russian stemming
// without stop words, over the value's strings; Item.Score is the share of
// the query's words an item holds, and the best come first. Without Text
// the most recently updated come first. Every store reads the live items
// under the prefix and then applies the same Query.Apply, so the stores
// answer alike; a namespace per user keeps that read small.
//
// # Stores
//
// NewInProcess keeps items in this process. The subpackages sqlite, postgres
// and redis keep them durably; all pass the same conformance suite (package
// memorytest) and enforce the same limits (MaxKeyBytes and the others).
// Every call honours the deadline of its context and, when it has none,
// gives up after DefaultTimeout: a memory lookup sits in a turn's path.
// The durable stores are Drivers behind NewStore, which keeps these rules
// for all of them; a store of your own can be one too.
//
// # In a graph
//
// A node reaches the store through the run's context value: pass it with
// graph.WithContext and read it with graph.ContextOf (see examples/memory).
package memory
