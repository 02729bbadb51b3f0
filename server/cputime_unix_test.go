//go:build unix

package server

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the process has used, on every thread: on
// a machine shared with other work it varies far less than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
