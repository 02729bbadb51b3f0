//go:build !linux

package servers

import (
	"os/exec"
	"time"
)

// browserExit is unused where the browser's processes are not waited for.
const browserExit = 10 * time.Second

// browserGroup leaves chromedp's command as it is: waiting for a browser's
// helper processes reads /proc, which only Linux has.
type browserGroup struct{}

func (*browserGroup) prepare(*exec.Cmd) {}

func (*browserGroup) stop(time.Duration) error { return nil }
