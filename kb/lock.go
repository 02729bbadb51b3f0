package kb

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// lockPoll is how long one attempt at the build lock waits; between
// attempts the context and the deadline are checked.
const lockPoll = 100 * time.Millisecond

// buildLock is held while a generation is built and published, so that two
// processes do not build the same generation twice and a prune removes
// nothing that is being built. It is the exclusive OS file lock that bbolt
// takes on a database it opens for writing (flock, LockFileEx on Windows):
// portable, and dropped by the system when its holder exits or dies, so a
// crashed builder never leaves the cache locked.
type buildLock struct{ db *bolt.DB }

// lockBuild waits for the build lock of dir until ctx ends or wait passes.
func lockBuild(ctx context.Context, dir string, wait time.Duration) (*buildLock, error) {
	path := filepath.Join(dir, lockName)
	deadline := time.Now().Add(wait)
	for {
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lockPoll})
		if err == nil {
			return &buildLock{db: db}, nil
		}
		if !errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("index %s: build lock: %w", dir, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("index %s: waiting for another process to finish rebuilding it: %w", dir, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("index %s: another process has been rebuilding it for more than %s (lock_timeout); wait for it, or pass another --cache-dir", dir, wait)
		}
	}
}

func (l *buildLock) release() { _ = l.db.Close() }
