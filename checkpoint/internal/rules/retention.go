package rules

import "time"

// Expired returns the positions of the checkpoints that a retention of
// keepLast newest and maxAge removes, given the Metadata.Time of a thread's
// checkpoints newest first. Zero means no limit of that kind.
func Expired(newestFirst []time.Time, keepLast int, maxAge time.Duration, now time.Time) []int {
	var out []int
	cutoff := now.Add(-maxAge)
	for i, t := range newestFirst {
		tooMany := keepLast > 0 && i >= keepLast
		tooOld := maxAge > 0 && t.Before(cutoff)
		if tooMany || tooOld {
			out = append(out, i)
		}
	}
	return out
}
