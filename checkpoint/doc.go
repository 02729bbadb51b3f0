// Package checkpoint keeps the history of a graph's threads so that a run can
// pause, resume after a restart, be inspected step by step, or fork.
//
// # Model
//
// A thread is one conversation or job, named by the caller. After a
// super-step of a graph the thread gets a new Checkpoint holding the whole
// state at that point (encoded by a Codec), the nodes to run next and any
// pending interrupts. A Put never changes an earlier checkpoint, so a
// thread's history is append-only.
//
// # Pieces
//
// A store keeps a state as pieces, each once per thread: the state is cut
// where its top-level JSON fields meet, small neighbours together, and a
// long field again where its content says; a piece is named by a hash of
// its content, and a checkpoint lists the names of its pieces. So a Put
// writes only the pieces its thread does not have yet, what changed since
// the thread's earlier checkpoints, and a read joins them back byte for
// byte. Prune and Delete free the pieces no checkpoint lists any more.
// ListOptions.NoState lists checkpoints without joining their states. Every
// shipped store is a Meter, which counts what it writes and keeps.
//
// A Store assigns each checkpoint an ID unique in its thread. IDs are a
// zero-padded sequence number and a random suffix, so the IDs of a thread
// sort in the order they were Put, also when many writers share the thread;
// Latest is the checkpoint put last and List pages through the history newest
// first (ListOptions.Before takes the last ID of the previous page).
//
// Parent links a checkpoint to the one it continues. Continuing from an
// earlier checkpoint (time travel, or replaying with edited state) makes a
// fork: its Parent is not the thread's latest, both branches stay listed, and
// the fork becomes Latest because it was put last.
//
// # Retention
//
// Nothing is removed by itself. Prune applies a Retention to one thread or
// to all: KeepLast keeps the newest n checkpoints of each thread and MaxAge
// removes checkpoints older than it, so a thread idle for longer disappears
// entirely. A Parent may then name a checkpoint that was pruned.
//
// # Stores
//
// NewMemory keeps threads in this process. The subpackages sqlite, postgres
// and redis keep them durably; all pass the same conformance suite
// (package checkpointtest) and enforce the same limits: a thread or ID of at
// most 256 bytes of UTF-8 and a state of at most 16 MiB. Store methods honour
// the deadline of their context; pass one with a timeout.
//
// # State versions
//
// Codec encodes states as JSON and records Codec.Version in each checkpoint.
// When the state type changes, raise the version and give a Migrate that
// upgrades older data; a checkpoint of a newer or unknown version, or corrupt
// data, fails to decode with an error naming the thread, ID and version.
package checkpoint
