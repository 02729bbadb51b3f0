package rules

import (
	"fmt"
	"time"
)

// Bounds of a lease's ttl: under MinLeaseTTL a renewal every ttl/3 could
// not reach a server in time; over MaxLeaseTTL a dead process would hold
// its threads for longer than anyone waits.
const (
	MinLeaseTTL = 30 * time.Millisecond
	MaxLeaseTTL = 24 * time.Hour
)

// Lock checks the arguments of Locker.TryLock.
func Lock(thread, owner string, ttl time.Duration) error {
	if err := Key("thread", thread); err != nil {
		return err
	}
	if err := Key("owner", owner); err != nil {
		return err
	}
	if ttl < MinLeaseTTL || ttl > MaxLeaseTTL {
		return fmt.Errorf("lease ttl is %s; it must be from %s to %s", ttl, MinLeaseTTL, MaxLeaseTTL)
	}
	return nil
}
