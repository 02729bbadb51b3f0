package batch

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows how far a run is: a bar with rate and ETA on a terminal,
// a plain line every few seconds otherwise (logs, CI).
type progress struct {
	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	out    io.Writer
	total  int
	done   int
	failed int
	start  time.Time
	last   time.Time
}

// plainEvery is how often a plain progress line is written.
const plainEvery = 5 * time.Second

func newProgress(out io.Writer, terminal bool, total int) *progress {
	p := &progress{out: out, total: total, start: time.Now(), last: time.Now()}
	if terminal && total > 0 {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(out), progressbar.OptionSetDescription("rows"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("rows"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) add(failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
	if p.bar != nil {
		_ = p.bar.Add(1)
		return
	}
	if time.Since(p.last) >= plainEvery {
		p.last = time.Now()
		p.line()
	}
}

func (p *progress) line() {
	elapsed := time.Since(p.start).Seconds()
	rate := float64(p.done) / max(elapsed, 1e-9)
	eta := "-"
	if rate > 0 {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.out, "batch: %d/%d rows, %d failed, %.1f rows/s, ETA %s\n", p.done, p.total, p.failed, rate, eta)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	if p.total > 0 {
		p.line()
	}
}
