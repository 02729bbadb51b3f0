package main

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, killed
// (SIGKILL) when the test process dies: a test binary that is interrupted
// or times out runs no cleanup, and a command left running would go on
// writing into the test's folders after them.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills whatever the command started that still runs.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing is left
}
